// Tests for session.js: reconnect backoff and the session bookkeeping (seqs, acks, event
// numbers, the unacknowledged queue, a rebuild's renumbering).
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load, seeded } = require('./support/runtime.js');
const K = load('constants.js');
const { backoff, Session } = load('session.js');

describe('reconnect backoff', () => {
  test('full jitter between 0 and min(5 s, 250 ms · 2^attempt)', () => {
    const bounds = [250, 500, 1000, 2000, 4000, 5000, 5000, 5000];
    bounds.forEach((bound, attempt) => {
      assert.equal(backoff(attempt, () => 0), 0);
      assert.equal(backoff(attempt, () => 0.5), bound / 2);
      assert.ok(backoff(attempt, () => 0.999999) < bound);
      assert.ok(backoff(attempt, () => 0.999999) > bound * 0.999);
    });
    assert.equal(backoff(1e9, () => 0.5), 2500, 'a huge attempt count stays capped');
  });

  test('delays spread over the whole range', () => {
    const random = seeded(7);
    const delays = Array.from({ length: 4000 }, () => backoff(10, random));
    assert.ok(delays.every((delay) => delay >= 0 && delay < 5000));
    const quarters = [0, 0, 0, 0];
    for (const delay of delays) quarters[Math.floor(delay / 1250)]++;
    for (const count of quarters) assert.ok(count > 850 && count < 1150, `quarters ${quarters}`);
    const mean = delays.reduce((a, b) => a + b) / delays.length;
    assert.ok(Math.abs(mean - 2500) < 150, `mean ${mean}`);
  });

  test('with Math.random by default', () => {
    const delay = backoff(0);
    assert.ok(delay >= 0 && delay < 250);
  });
});

// ---------------------------------------------------------------------------------------------

describe('session bookkeeping', () => {
  const joined = (members) => ({ t: 'joined', v: 1, token: 'f'.repeat(32), resumed: true, events: 0, ...members });

  test('a first join is fresh and names the path; later ones resume', () => {
    const session = new Session(null);
    assert.deepEqual(session.join('/items?x=1'), { t: 'join', v: 1, path: '/items?x=1' });
    session.joined(joined({ resumed: false }));
    session.applied(1);
    session.applied(2);
    assert.deepEqual(session.join('/'), { t: 'join', v: 1, path: '/', token: 'f'.repeat(32), seq: 2 });
    assert.equal(session.ack(), null, 'the join told the server about seq 2');
  });

  test('a stored token resumes from seq 0 (a reloaded page has no documents)', () => {
    const session = new Session('a'.repeat(32));
    assert.deepEqual(session.join('/'), { t: 'join', v: 1, path: '/', token: 'a'.repeat(32), seq: 0 });
  });

  test('events are numbered from 1 and queued until consumed', () => {
    const session = new Session(null);
    session.joined(joined({ resumed: false }));
    assert.deepEqual(session.event('counter', 'increment'), { t: 'event', n: 1, stage: 'counter', name: 'increment' });
    assert.deepEqual(session.event('signup', 'email', 'a@'), { t: 'event', n: 2, stage: 'signup', name: 'email', value: 'a@' });
    assert.deepEqual(session.event('s', 'e', null).value, null, 'null is a value');
    assert.equal(session.queue.length, 3);
    session.consume(2);
    assert.deepEqual(session.queue.map((e) => e.n), [3]);
  });

  test('joined drops the consumed events and returns the rest in order', () => {
    const session = new Session(null);
    session.joined(joined({ resumed: false }));
    for (let i = 0; i < 5; i++) session.event('s', 'e', i);
    const again = session.joined(joined({ events: 2 }));
    assert.deepEqual(again.map((e) => e.n), [3, 4, 5]);
    assert.deepEqual(again.map((e) => e.value), [2, 3, 4]);
    assert.equal(session.event('s', 'e').n, 6);
  });

  test('a new session forgets seqs and events and numbers from 1 again', () => {
    const session = new Session('old');
    session.applied(40);
    session.event('s', 'e');
    session.event('s', 'e');
    const again = session.joined(joined({ token: 'new', resumed: false, events: 0 }));
    assert.deepEqual(again, []);
    assert.equal(session.token, 'new');
    assert.equal(session.lastSeq, 0);
    assert.equal(session.event('s', 'e').n, 1);
  });

  test('after a reload the numbers go on after the last one the server consumed', () => {
    const session = new Session('t');
    assert.deepEqual(session.joined(joined({ token: 't', events: 7 })), []);
    assert.equal(session.event('s', 'e').n, 8);
  });

  test('an event larger than the server reads is refused without using a number; joined says the limit', () => {
    const session = new Session(null);
    session.joined(joined({ resumed: false, max: 200 }));
    assert.equal(session.limit, 200);
    assert.equal(session.event('s', 'note', 'x'.repeat(300)), null);
    assert.equal(session.event('s', 'note', 'é'.repeat(90)), null, 'counted in UTF-8 bytes, not characters');
    assert.equal(session.queue.length, 0);
    assert.equal(session.event('s', 'note', 'short').n, 1, 'the refused ones used no number');
    const fits = 200 - JSON.stringify({ t: 'event', n: 2, stage: 's', name: 'note', value: '' }).length;
    assert.equal(session.event('s', 'note', 'x'.repeat(fits)).n, 2, 'exactly the limit fits');
    assert.equal(session.event('s', 'note', 'x'.repeat(fits + 1)), null, 'one byte more does not');
    assert.equal(new Session(null).limit, K.MAX_MESSAGE_BYTES, 'before joined: the default limit');
  });

  test('the unacknowledged events outlive a reload of the tab and go again with their numbers', () => {
    const before = new Session(null);
    before.joined(joined({ resumed: false }));
    for (let i = 1; i <= 4; i++) before.event('s', 'e', i);
    before.consume(1);
    const saved = JSON.parse(JSON.stringify(before.saved()));
    assert.deepEqual(saved.queue.map((e) => e.n), [2, 3, 4]);
    const after = new Session(before.token, saved);
    const again = after.joined(joined({ token: before.token, events: 2 }));
    assert.deepEqual(again.map((e) => [e.n, e.value]), [[3, 3], [4, 4]], 'the consumed one is not sent again');
    assert.equal(after.event('s', 'e', 5).n, 5);
    assert.equal(after.saved().queue.length, 3);
    after.consume(5);
    assert.equal(after.saved(), null, 'nothing to keep once all are consumed');
    // Nothing is restored without a token, or from something that is not a saved queue.
    assert.deepEqual(new Session(null, saved).queue, []);
    assert.deepEqual(new Session('t', { next: 'x', queue: 'y' }).queue, []);
    assert.deepEqual(new Session('t', { next: 3, queue: [{ t: 'ack' }, { t: 'event', n: 9 }, null] }).queue, []);
    // A new session forgets them.
    const fresh = new Session(before.token, saved);
    assert.deepEqual(fresh.joined(joined({ token: 'new', resumed: false })), []);
    assert.equal(fresh.saved(), null);
  });

  test('a rebuild sends again, as they were, the events never written to a socket; of the others only those `again` names', () => {
    const session = new Session(null);
    assert.equal(session.sent, 0, 'a new session has sent nothing');
    session.joined(joined({ resumed: false }));
    session.join('/', [{ id: 'lot-1', template: 'lot' }]);
    session.event('lot-1', 'bid', { amount: '10' }); // written, then the socket was lost:
    session.sent = session.next - 1; // what the I/O part records then
    session.event('lot-1', 'bid', { amount: '25' }); // made while the page reconnects: never written
    session.event('lot-1', 'amount', '25', ['lot-1', 'amount']); // a kept value
    const again = session.joined(joined({ token: 'new', resumed: false, rebuilt: ['lot-9'] }));
    assert.deepEqual(again, [
      { t: 'event', n: 1, stage: 'lot-9', name: 'bid', value: { amount: '25' } },
      { t: 'event', n: 2, stage: 'lot-9', name: 'amount', value: '25' },
    ]);
    assert.deepEqual(session.lost, [1], 'the bid written before the loss may have been applied');
    assert.deepEqual(session.again, { 2: ['lot-9', 'amount'] }, 'the bid sent again is not made safe to repeat');

    // Written now, and the socket lost again before they were consumed: the bid is lost this time.
    session.sent = session.next - 1;
    session.join('/', [{ id: 'lot-9', template: 'lot' }]);
    const third = session.joined(joined({ token: 'newer', resumed: false, rebuilt: ['lot-12'] }));
    assert.deepEqual(third, [{ t: 'event', n: 1, stage: 'lot-12', name: 'amount', value: '25' }]);
    assert.deepEqual(session.lost, [1]);
  });

  test('an event a rebuilt session\'s server would not read is lost, not dropped: its control says so', () => {
    const session = new Session(null);
    session.joined(joined({ resumed: false }));
    session.join('/', [{ id: 'lot-1', template: 'lot' }]);
    session.event('lot-1', 'note', 'x'.repeat(300), ['lot-1', 'note']); // a kept value, safe to send again
    session.event('lot-1', 'amount', '25', ['lot-1', 'amount']);
    const again = session.joined(joined({ token: 'new', resumed: false, rebuilt: ['lot-9'], max: 200 }));
    assert.deepEqual(again, [{ t: 'event', n: 1, stage: 'lot-9', name: 'amount', value: '25' }]);
    assert.deepEqual(session.lost, [1], 'larger than the new server reads: not sent, and marked');
    assert.deepEqual(session.renumbered, { 2: 1 });
  });

  test('events kept across a reload may have been sent: a rebuild sends again only those `again` names', () => {
    const before = new Session(null);
    before.joined(joined({ resumed: false }));
    before.event('lot-1', 'bid', { amount: '25' }); // written or not: the reload cannot know
    before.event('lot-1', 'amount', '25', ['lot-1', 'amount']);
    const after = new Session(before.token, JSON.parse(JSON.stringify(before.saved())));
    assert.equal(after.sent, 2);
    after.join('/', [{ id: 'lot-1', template: 'lot' }]);
    after.event('lot-1', 'watch'); // made after the reload, before any socket joined
    const again = after.joined(joined({ token: 'new', resumed: false, rebuilt: ['lot-9'] }));
    assert.deepEqual(again.map((e) => [e.n, e.stage, e.name]), [[1, 'lot-9', 'amount'], [2, 'lot-9', 'watch']]);
    assert.deepEqual(after.lost, [1]);
  });

  test('acks are coalesced: due at once only every 16 applied seqs', () => {
    const session = new Session(null);
    session.joined(joined({ resumed: false }));
    for (let seq = 1; seq < K.ACK_EVERY; seq++) assert.equal(session.applied(seq), false, `seq ${seq}`);
    assert.equal(session.lastSeq, K.ACK_EVERY - 1);
    assert.equal(session.applied(K.ACK_EVERY), true, 'every 16 applied, an ack is due at once');
    assert.deepEqual(session.ack(), { t: 'ack', seq: K.ACK_EVERY });
    assert.equal(session.ack(), null, 'nothing new to acknowledge');
    assert.equal(session.applied(K.ACK_EVERY + 1), false);
    assert.deepEqual(session.ack(), { t: 'ack', seq: K.ACK_EVERY + 1 });
  });

  // A server that consumes each event number once, in order (Protocol.md), over a wire that
  // drops whatever is in flight when the connection breaks.
  function simulate(seed) {
    const random = seeded(seed);
    const server = { consumed: 0, applied: [], gaps: 0, token: 'c'.repeat(32), sessionSeq: 0 };
    let client = new Session(null);
    let connected = false;
    let wire = []; // client → server, in order
    let created = 0; // each event's value is its creation order
    const deliverOne = () => {
      const message = wire.shift();
      if (message.t !== 'event') return;
      if (message.n <= server.consumed) return; // acknowledged again, not applied
      if (message.n !== server.consumed + 1) return void server.gaps++;
      server.consumed = message.n;
      server.applied.push(message.value);
    };
    const connect = () => {
      client.join('/');
      const first = server.sessionSeq === 0;
      server.sessionSeq = 1;
      const again = client.joined({ t: 'joined', v: 1, token: server.token, resumed: !first, events: server.consumed });
      connected = true;
      wire.push(...again);
    };
    connect();
    for (let step = 0; step < 2000; step++) {
      const roll = random();
      if (roll < 0.4) {
        const message = client.event('s', 'e', ++created);
        if (connected) wire.push(message);
      } else if (roll < 0.7 && connected && wire.length) {
        deliverOne();
      } else if (roll < 0.8 && connected) {
        client.consume(server.consumed); // an ack, or a patch's ack
      } else if (roll < 0.88 && connected) {
        connected = false;
        wire = []; // in flight: lost
      } else if (roll < 0.95 && !connected) {
        connect();
      } else if (roll < 0.96) {
        // A reload: the page forgets its queue (events never delivered are lost with it) and
        // resumes with the stored token.
        client = new Session(client.token);
        connected = false;
        wire = [];
        connect();
      }
    }
    if (!connected) connect();
    while (wire.length) deliverOne();
    client.consume(server.consumed);
    return { server, client };
  }

  test('across disconnects and resumes no event is lost, doubled or reordered', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { server, client } = simulate(seed);
      assert.equal(server.gaps, 0, `seed ${seed}: an event number skipped ahead`);
      // Values are applied once each, in increasing order; those missing were in a reloaded page's queue.
      for (let i = 1; i < server.applied.length; i++) assert.ok(server.applied[i] > server.applied[i - 1], `seed ${seed}`);
      assert.equal(new Set(server.applied).size, server.applied.length, `seed ${seed}: an event applied twice`);
      assert.equal(client.queue.length, 0, `seed ${seed}: events left unacknowledged`);
    }
  });

  test('without reloads every event created is applied exactly once', () => {
    const random = seeded(99);
    const server = { consumed: 0, applied: [] };
    const client = new Session(null);
    let wire = [];
    let resumed = false;
    const deliver = (count) => {
      for (const message of wire.splice(0, count)) {
        if (message.n === server.consumed + 1) {
          server.consumed = message.n;
          server.applied.push(message.value);
        } else assert.ok(message.n <= server.consumed, `event ${message.n} skips ahead of ${server.consumed}`);
      }
    };
    for (let round = 0; round < 200; round++) {
      wire.push(...client.joined({ t: 'joined', v: 1, token: 't', resumed, events: server.consumed }));
      resumed = true;
      const created = Math.floor(random() * 6);
      for (let i = 0; i < created; i++) wire.push(client.event('s', 'e', server.applied.length + client.queue.length + 1));
      deliver(Math.floor(random() * (wire.length + 1)));
      if (random() < 0.5) client.consume(server.consumed);
      wire = []; // the connection breaks
    }
    wire.push(...client.joined({ t: 'joined', v: 1, token: 't', resumed: true, events: server.consumed }));
    deliver(wire.length);
    assert.deepEqual(server.applied, Array.from({ length: server.applied.length }, (_, i) => i + 1));
    assert.equal(client.next - 1, server.consumed, 'every number the client used was consumed');
  });
});
