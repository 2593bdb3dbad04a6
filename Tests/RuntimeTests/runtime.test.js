// Tests for the browser runtime's pure parts (Sources/FootlightServer/Runtime/*.js): binding attributes, keyed
// list plans, event gates with a fake clock, control and form values, reconnect backoff and the
// session bookkeeping (seqs, acks, event numbers, the unacknowledged queue). Then the six files
// together: how they are wired (each its own global, factories taking only earlier files) and the
// page booting in a small fake browser.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const folder = path.resolve(__dirname, '..', '..', 'Sources', 'FootlightServer', 'Runtime');
const load = (name) => require(path.join(folder, name));
const K = load('constants.js');
const { parseSlot, parseBinding, readPath, truthy } = load('bindings.js');
const { planList } = load('lists.js');
const { gate, controlValue, formValue } = load('events.js');
const { backoff, Session } = load('session.js');

/** A small seeded random generator (mulberry32), so failures repeat. */
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled(array, random) {
  const copy = array.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------

describe('constants', () => {
  test('message types are distinct and the wire names match Protocol.md', () => {
    const types = [K.JOIN, K.JOINED, K.EVENT, K.REPORT, K.ACK, K.PING, K.PONG, K.MOUNT, K.UNMOUNT, K.OPEN, K.PATCH, K.ERROR, K.BYE];
    assert.equal(new Set(types).size, types.length);
    assert.deepEqual(
      [K.SUBPROTOCOL, K.WS_PATH, K.VERSION, K.BACK, K.ROOT, K.PUSH, K.MODAL],
      ['footlight.v1', '/ws', 1, '@back', 'root', 'push', 'modal'],
    );
    assert.deepEqual([K.CLOSE_GOING_AWAY, K.CLOSE_TAKEN_OVER, K.CLOSE_ENDED, K.CLOSE_START_OVER], [1001, 4000, 4001, 4002]);
  });

  test('binding attributes are the ones Bindings.md names', () => {
    assert.deepEqual(Object.values(K.BIND), ['data-text', 'data-attr', 'data-class', 'data-show', 'data-hide', 'data-value', 'data-list']);
    assert.deepEqual(Object.values(K.ON), ['data-on-click', 'data-on-input', 'data-on-change', 'data-on-submit', 'data-on-keydown']);
    assert.equal(K.A_TEMPLATE, 'data-stage');
    assert.equal(K.C_BUSY, 'footlight-busy');
    assert.equal(K.BANNER, 'footlight-banner');
  });

  test('each wire name is its own value', () => {
    for (const name of ['seq', 'stage', 'template', 'doc', 'place', 'url', 'events', 'ops', 'ack', 'n', 'from', 'snapshot']) {
      assert.equal(K[name.toUpperCase()], name);
    }
  });

  test("the runtime's texts follow the shown stages' language when the page gives its own", () => {
    /** A document whose first stage speaks `stageLang` (null: none says), with `texts` as the page's script. */
    const page = (stageLang, texts, documentLang = 'en') => ({
      documentElement: { lang: documentLang },
      querySelector: (selector) => (selector === '#footlight-outlet [lang]' && stageLang ? { lang: stageLang } : null),
      getElementById: (id) => (id === 'footlight-texts' && texts !== null ? { textContent: texts } : null),
    });
    const german = JSON.stringify({ de: { TEXT_RECONNECTING: 'Verbindung wird wiederhergestellt…' } });
    const say = (key, doc, kept) => K.text(key, K.lang(doc, kept), doc);
    assert.equal(say('TEXT_RECONNECTING', page('de', german)), 'Verbindung wird wiederhergestellt…');
    assert.equal(say('TEXT_RECONNECTING', page(null, german, 'de')), 'Verbindung wird wiederhergestellt…');
    assert.equal(say('TEXT_RECONNECTING', page('en', german)), 'Reconnecting…');
    assert.equal(say('TEXT_ENDED', page('de', german)), 'Session ended.', 'a text the page lacks');
    assert.equal(say('TEXT_RECONNECTING', page('de', '{not json')), 'Reconnecting…');
    assert.equal(say('TEXT_RECONNECTING', page('de', null)), 'Reconnecting…');
    assert.equal(K.text('TEXT_RECONNECTING', undefined, undefined), 'Reconnecting…', 'no document (Node)');
    // No stage shown yet (a reload that finds no server): the language kept from the last look.
    assert.equal(say('TEXT_RECONNECTING', page(null, german, 'en'), 'de'), 'Verbindung wird wiederhergestellt…');
    assert.equal(K.lang(page('en', german), 'de'), 'en', 'a stage shown says it');
    assert.equal(K.lang(page('de', german)), 'de');
    assert.equal(K.lang(page(null, german, '')), '');
  });
});

// ---------------------------------------------------------------------------------------------

describe('binding attributes', () => {
  test('a slot, a dotted path and a negation', () => {
    assert.deepEqual(parseSlot('count'), { not: false, bool: false, path: ['count'] });
    assert.deepEqual(parseSlot(' seller.name '), { not: false, bool: false, path: ['seller', 'name'] });
    assert.deepEqual(parseSlot('!canSubmit'), { not: true, bool: false, path: ['canSubmit'] });
    assert.deepEqual(parseSlot('rows.0.title'), { not: false, bool: false, path: ['rows', '0', 'title'] });
    assert.deepEqual(parseSlot('!!error'), { not: false, bool: true, path: ['error'] }, 'the truthiness as a boolean');
  });

  test('bad slots are refused with the text in the message', () => {
    for (const text of ['', '  ', 'a..b', '.a', 'a.', 'a b', '!!!a', '! !a', 'a:b', 'a,b', '!', '!!']) {
      assert.throws(() => parseSlot(text), (error) => error.message.includes(`"${text}"`), text);
    }
  });

  test('single-slot kinds give one binding', () => {
    for (const kind of ['text', 'show', 'hide', 'value', 'list']) {
      assert.deepEqual(parseBinding(kind, 'a.b'), [{ kind, not: false, bool: false, path: ['a', 'b'] }]);
    }
    assert.deepEqual(parseBinding('show', '!busy'), [{ kind: 'show', not: true, bool: false, path: ['busy'] }]);
  });

  test('attr and class take name:slot pairs', () => {
    assert.deepEqual(parseBinding('attr', 'href:url, title:hint'), [
      { kind: 'attr', name: 'href', not: false, bool: false, path: ['url'] },
      { kind: 'attr', name: 'title', not: false, bool: false, path: ['hint'] },
    ]);
    assert.deepEqual(parseBinding('attr', 'disabled:!canSubmit'), [{ kind: 'attr', name: 'disabled', not: true, bool: false, path: ['canSubmit'] }]);
    assert.deepEqual(parseBinding('class', 'active:isActive,error:form.hasError'), [
      { kind: 'class', name: 'active', not: false, bool: false, path: ['isActive'] },
      { kind: 'class', name: 'error', not: false, bool: false, path: ['form', 'hasError'] },
    ]);
    assert.deepEqual(parseBinding('attr', 'aria-invalid:!!emailError'), [
      { kind: 'attr', name: 'aria-invalid', not: false, bool: true, path: ['emailError'] },
    ]);
    assert.throws(() => parseBinding('value', '!!a'), /cannot negate a value/);
  });

  test('errors name the attribute and the part that is wrong', () => {
    const cases = [
      ['attr', 'href', 'data-attr="href": "href" is not "name:slot"'],
      ['attr', 'href:url,', 'data-attr="href:url,": "" is not "name:slot"'],
      ['attr', ':url', 'data-attr=":url": ":url" is not "name:slot"'],
      ['class', 'a b:c', 'data-class="a b:c": "a b:c" is not "name:slot"'],
      ['attr', 'href:', 'data-attr="href:": "" is not a slot name or a dotted path'],
      ['text', 'a b', 'data-text="a b": "a b" is not a slot name or a dotted path'],
      ['value', '!email', 'data-value="!email": "!" cannot negate a value or a list'],
      ['list', '!rows', 'data-list="!rows": "!" cannot negate a value or a list'],
    ];
    for (const [kind, text, message] of cases) assert.throws(() => parseBinding(kind, text), { message });
  });

  test('readPath follows members and array indices, null through null, undefined when missing', () => {
    const document = { seller: { name: 'Ada', tags: ['x', 'y'] }, empty: null, zero: 0 };
    assert.equal(readPath(document, ['seller', 'name']), 'Ada');
    assert.equal(readPath(document, ['seller', 'tags', '1']), 'y');
    assert.equal(readPath(document, ['empty']), null);
    assert.equal(readPath(document, ['zero']), 0);
    assert.equal(readPath(document, ['missing']), undefined);
    assert.equal(readPath(document, ['empty', 'x']), null, 'a path through a null record is null');
    assert.equal(readPath(document, ['missing', 'x']), undefined);
    assert.equal(readPath(document, ['seller', 'name', 'length']), undefined);
    assert.equal(readPath(document, ['toString']), undefined, 'inherited members are not slots');
    assert.equal(readPath(document, []), document);
  });

  test('truthiness: an empty array is false', () => {
    for (const value of [false, null, 0, '', []]) assert.equal(truthy(value), false, JSON.stringify(value));
    for (const value of [true, 1, 'x', [0], {}]) assert.equal(truthy(value), true, JSON.stringify(value));
  });
});

// ---------------------------------------------------------------------------------------------

/** Carries out a plan on an array of keys as the DOM code does on nodes; counts the moves. */
function carryOut(oldKeys, plan) {
  const nodes = oldKeys.filter((key) => !plan.remove.includes(key));
  let moves = 0;
  let inserts = 0;
  for (const [key, before, fresh] of plan.steps) {
    const at = nodes.indexOf(key);
    assert.equal(at < 0, fresh, `row ${key} is ${fresh ? 'new' : 'old'}`);
    if (at >= 0) nodes.splice(at, 1);
    const next = before === null ? nodes.length : nodes.indexOf(before);
    assert.ok(next >= 0, `row ${before} is placed before it is used as an anchor`);
    nodes.splice(next, 0, key);
    fresh ? inserts++ : moves++;
  }
  return { nodes, moves, inserts };
}

describe('keyed list plans', () => {
  const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

  test('the same order needs no steps', () => {
    assert.deepEqual(planList([1, 2, 3], [1, 2, 3]), { remove: [], steps: [] });
    assert.deepEqual(planList([], []), { remove: [], steps: [] });
  });

  test('reversing 1000 rows moves 999 and gives the reversed order', () => {
    const old = range(1000);
    const reversed = old.slice().reverse();
    const plan = planList(old, reversed);
    assert.deepEqual(plan.remove, []);
    const { nodes, moves, inserts } = carryOut(old, plan);
    assert.deepEqual(nodes, reversed);
    assert.equal(moves, 999);
    assert.equal(inserts, 0);
  });

  test('moving one row to the front is one move', () => {
    const plan = planList(['a', 'b', 'c', 'd'], ['d', 'a', 'b', 'c']);
    assert.deepEqual(plan.steps, [['d', 'a', false]]);
    assert.deepEqual(carryOut(['a', 'b', 'c', 'd'], plan).nodes, ['d', 'a', 'b', 'c']);
  });

  test('swapping two rows is one move', () => {
    const plan = planList([1, 2, 3, 4, 5], [1, 4, 3, 2, 5]);
    const { nodes, moves } = carryOut([1, 2, 3, 4, 5], plan);
    assert.deepEqual(nodes, [1, 4, 3, 2, 5]);
    assert.equal(moves, 2, 'two of 2, 3, 4 leave the longest run (which keeps one)');
  });

  test('inserts, removals and moves together', () => {
    const plan = planList(['a', 'b', 'c', 'd', 'e'], ['e', 'x', 'b', 'y', 'a']);
    assert.deepEqual(plan.remove, ['c', 'd']);
    const { nodes, inserts } = carryOut(['a', 'b', 'c', 'd', 'e'], plan);
    assert.deepEqual(nodes, ['e', 'x', 'b', 'y', 'a']);
    assert.equal(inserts, 2);
  });

  test('from empty every row is inserted in order; to empty every row is removed', () => {
    const plan = planList([], [1, 2, 3]);
    assert.deepEqual(plan.steps, [
      [3, null, true],
      [2, 3, true],
      [1, 2, true],
    ]);
    assert.deepEqual(planList([1, 2, 3], []), { remove: [1, 2, 3], steps: [] });
  });

  test('string and number ids are different keys', () => {
    const plan = planList([1, '1'], ['1', 1]);
    assert.deepEqual(carryOut([1, '1'], plan).nodes, ['1', 1]);
  });

  test('random edits: the plan gives the new order with no more moves than needed', () => {
    const random = seeded(42);
    for (let round = 0; round < 300; round++) {
      const size = Math.floor(random() * 60);
      const old = shuffled(range(size), random);
      const kept = old.filter(() => random() < 0.8);
      const added = range(Math.floor(random() * 10), 1000 + round * 100);
      const next = shuffled(kept.concat(added), random);
      const plan = planList(old, next);
      const { nodes, moves, inserts } = carryOut(old, plan);
      assert.deepEqual(nodes, next);
      assert.equal(inserts, added.length);
      // The rows that stay form a longest increasing run, so moves = kept - that run's length.
      const positions = kept.length ? next.filter((key) => old.includes(key)).map((key) => old.indexOf(key)) : [];
      const run = [];
      for (const p of positions) {
        let i = run.findIndex((tail) => tail >= p);
        if (i < 0) i = run.length;
        run[i] = p;
      }
      assert.equal(moves, kept.length - run.length);
    }
  });

  test('a repeated id is refused', () => {
    assert.throws(() => planList([1, 2], [1, 2, 1]), { message: 'two rows have the id 1' });
    assert.throws(() => planList([], ['a', 'a']), { message: 'two rows have the id "a"' });
  });
});

// ---------------------------------------------------------------------------------------------

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map();
  return {
    now: () => now,
    set(fn, ms) {
      timers.set(nextId, { at: now + ms, fn });
      return nextId++;
    },
    clear(id) {
      timers.delete(id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
    get pendingTimers() {
      return timers.size;
    },
  };
}

/** A gate with a fake clock that records [time, value] for each emit. */
function recordedGate(options) {
  const clock = fakeClock();
  const sent = [];
  const g = gate(options, clock, (value) => sent.push([clock.now(), value]));
  return { clock, sent, g };
}

describe('event gates', () => {
  test('no options: every value goes at once', () => {
    const { g, sent } = recordedGate(undefined);
    g.push('a');
    g.push('b');
    assert.deepEqual(sent, [
      [0, 'a'],
      [0, 'b'],
    ]);
    assert.equal(g.pending, false);
  });

  test('debounce: only the last value, its delay after the last push', () => {
    const { g, sent, clock } = recordedGate({ debounce: 300 });
    g.push('a');
    clock.advance(100);
    g.push('ab');
    clock.advance(299);
    assert.deepEqual(sent, []);
    assert.equal(g.pending, true);
    clock.advance(1);
    assert.deepEqual(sent, [[400, 'ab']]);
    assert.equal(g.pending, false);
    assert.equal(clock.pendingTimers, 0);
  });

  test('debounce: flush (blur, or a click in the stage) sends the waiting value now, once', () => {
    const { g, sent, clock } = recordedGate({ debounce: 300 });
    g.push('abc');
    clock.advance(50);
    g.flush();
    assert.deepEqual(sent, [[50, 'abc']]);
    clock.advance(1000);
    g.flush();
    assert.deepEqual(sent, [[50, 'abc']], 'nothing waits, nothing more is sent');
  });

  test('throttle: the first at once, then at most one per interval with the latest value', () => {
    const { g, sent, clock } = recordedGate({ throttle: 100 });
    g.push(1);
    clock.advance(10);
    g.push(2);
    clock.advance(10);
    g.push(3);
    assert.deepEqual(sent, [[0, 1]]);
    clock.advance(80);
    assert.deepEqual(sent, [
      [0, 1],
      [100, 3],
    ]);
    clock.advance(50);
    g.push(4);
    clock.advance(49);
    assert.equal(sent.length, 2);
    clock.advance(1);
    assert.deepEqual(sent.at(-1), [200, 4]);
    clock.advance(500);
    g.push(5);
    assert.deepEqual(sent.at(-1), [700, 5], 'after a quiet interval the next value goes at once');
  });

  test('throttle: a steady stream goes out once per interval', () => {
    const { g, sent, clock } = recordedGate({ throttle: 100 });
    for (let t = 0; t < 1000; t += 10) {
      g.push(t);
      clock.advance(10);
    }
    clock.advance(100);
    const times = sent.map(([time]) => time);
    assert.deepEqual(times, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    assert.deepEqual(sent.at(-1), [1000, 990], 'the latest value is never lost');
  });

  test('commit on blur: nothing until flush, then the latest value', () => {
    const { g, sent, clock } = recordedGate({ commit: 'blur' });
    g.push('a');
    g.push('ab');
    clock.advance(60_000);
    assert.deepEqual(sent, []);
    assert.equal(g.pending, true);
    g.flush();
    assert.deepEqual(sent, [[60_000, 'ab']]);
    g.flush();
    assert.equal(sent.length, 1);
  });
});

describe('event values', () => {
  test('a control: checked for a checkbox, value otherwise', () => {
    assert.equal(controlValue({ type: 'checkbox', checked: true, value: 'on' }), true);
    assert.equal(controlValue({ type: 'text', value: 'hi' }), 'hi');
    assert.equal(controlValue({ type: 'radio', checked: true, value: 'b' }), 'b');
    assert.equal(controlValue({ type: 'select-one', value: 'x' }), 'x');
  });

  test('a form: its named, enabled fields; buttons, files, unnamed controls and unchecked radios left out', () => {
    const form = {
      elements: [
        { name: 'email', type: 'email', value: 'a@b.c' },
        { name: 'password', type: 'password', value: 'secret' },
        { name: 'agree', type: 'checkbox', checked: false, value: 'on' },
        { name: 'plan', type: 'radio', checked: false, value: 'free' },
        { name: 'plan', type: 'radio', checked: true, value: 'pro' },
        { name: 'size', type: 'radio', checked: false, value: 's' },
        { name: 'old', type: 'text', value: 'x', disabled: true },
        { name: 'go', type: 'submit', value: 'Go' },
        { name: 'upload', type: 'file', value: '' },
        { name: '', type: 'text', value: 'unnamed' },
        { name: 'group', type: 'fieldset' },
        { name: '__proto__', type: 'text', value: 'plain data' },
      ],
    };
    const fields = formValue(form);
    assert.equal(Object.getPrototypeOf(fields), null);
    // A named fieldset has no value: it is left out of the JSON sent.
    assert.deepEqual(JSON.parse(JSON.stringify(fields)), JSON.parse('{"email":"a@b.c","password":"secret","agree":false,"plan":"pro","__proto__":"plain data"}'));
    assert.equal(JSON.stringify(fields), '{"email":"a@b.c","password":"secret","agree":false,"plan":"pro","__proto__":"plain data"}');
  });
});

// ---------------------------------------------------------------------------------------------

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
  const joined = (members) => ({ t: 'joined', v: 1, v: 1, token: 'f'.repeat(32), resumed: true, events: 0, ...members });

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
      const again = client.joined({ t: 'joined', v: 1, v: 1, token: server.token, resumed: !first, events: server.consumed });
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

// ---------------------------------------------------------------------------------------------

/** The page's script tags, in order, with the one global each file sets in a browser. */
const PAGE = [
  ['constants.js', 'FootlightConstants'],
  ['pointer.js', 'FootlightPointer'],
  ['patch.js', 'FootlightPatch'],
  ['lists.js', 'FootlightLists'],
  ['bindings.js', 'FootlightBindings'],
  ['events.js', 'FootlightEvents'],
  ['session.js', 'FootlightSession'],
  ['storage.js', 'FootlightStorage'],
  ['banner.js', 'FootlightBanner'],
  ['keeping.js', 'FootlightKeeping'],
  ['transport.js', 'FootlightTransport'],
  ['history.js', 'FootlightHistory'],
  ['hooks.js', 'FootlightHooks'],
  ['stages.js', 'FootlightStages'],
  ['commands.js', 'FootlightCommands'],
  ['runtime.js', 'footlight'],
];

/** What a file's wrapper hands its factory: {required: the files under Node, read: the globals in a page}. */
function wrapperInputs(file) {
  const source = fs.readFileSync(path.join(folder, file), 'utf8');
  const [start, end] = [source.indexOf('((root, factory) => {'), source.indexOf('})(this, ')];
  assert.ok(start >= 0 && end > start, `${file} starts with the usual wrapper`);
  const wrapper = source.slice(start, end);
  const required = [...wrapper.matchAll(/require\('\.\/([\w-]+\.js)'\)/g)].map((match) => match[1]);
  const read = [...wrapper.matchAll(/\broot\.(\w+)\b(?!\s*=[^=])/g)].map((match) => match[1]);
  return { required, read };
}

/**
 * Just enough of a browser for the runtime: elements (attributes, classes, children, bubbling
 * events, focus), a document with the page's outlets and stage templates, a WebSocket that
 * records what is sent, sessionStorage, History and timers that run only when the test says so.
 * `templates` maps a template name to a function building its content.
 */
function fakeBrowser(templates) {
  const clock = fakeClock();
  const sockets = [];
  const errors = [];
  const documentListeners = [];
  const windowListeners = [];
  const windowHandlers = {}; // type → the listeners, to fire them

  class Element {
    constructor(tagName, attributes = {}, children = []) {
      const classes = new Set();
      Object.assign(this, { tagName: tagName.toUpperCase(), parentNode: null, children: [], hidden: false, text: '' });
      this.attributes = new Map(Object.entries(attributes));
      this.type = attributes.type ?? '';
      this.value = '';
      this.listeners = {};
      this.classList = {
        add: (name) => classes.add(name),
        remove: (name) => classes.delete(name),
        toggle: (name, on = !classes.has(name)) => (on ? classes.add(name) : classes.delete(name), on),
        contains: (name) => classes.has(name),
      };
      this.append(...children);
    }
    get textContent() {
      return this.text + this.children.map((child) => child.textContent).join('');
    }
    set textContent(text) {
      for (const child of this.children) child.parentNode = null;
      this.children = [];
      this.text = String(text);
    }
    // A form's controls, and a control's name, as formValue reads them.
    get elements() {
      return this.querySelectorAll('input,select,textarea,button');
    }
    get name() {
      return this.getAttribute('name') ?? '';
    }
    get childElementCount() {
      return this.children.length;
    }
    get firstElementChild() {
      return this.children[0] ?? null;
    }
    getAttribute(name) {
      return this.attributes.has(name) ? this.attributes.get(name) : null;
    }
    hasAttribute(name) {
      return this.attributes.has(name);
    }
    setAttribute(name, value) {
      this.attributes.set(name, String(value));
    }
    removeAttribute(name) {
      this.attributes.delete(name);
    }
    // Selectors the runtime uses on stage content: lists of tag[attribute="value"], each part
    // optional, and a class (.name, as a stage's element has).
    matches(selector) {
      return selector.split(',').some((one) => {
        const className = /^\.([\w-]+)$/.exec(one.trim())?.[1];
        if (className) return this.className === className || this.classList.contains(className);
        const match = /^([\w-]*)(?:\[([\w-]+)(?:="([^"]*)")?\])?$/.exec(one.trim());
        if (!match || !(match[1] || match[2])) return false;
        const [, tag, name, value] = match;
        if (tag && this.tagName !== tag.toUpperCase()) return false;
        if (name && !this.attributes.has(name)) return false;
        return value === undefined || this.attributes.get(name) === value;
      });
    }
    querySelectorAll(selector) {
      return this.children.flatMap((child) => [...(child.matches(selector) ? [child] : []), ...child.querySelectorAll(selector)]);
    }
    querySelector(selector) {
      return this.querySelectorAll(selector)[0] ?? null;
    }
    closest(selector) {
      for (let el = this; el; el = el.parentNode) if (el.matches(selector)) return el;
      return null;
    }
    replaceChildren(...nodes) {
      this.textContent = '';
      this.append(...nodes);
    }
    replaceWith(node) {
      const parent = this.parentNode;
      // A fragment's children take its place.
      for (const child of node.tagName === '#FRAGMENT' ? [...node.children] : [node]) parent.insertBefore(child, this);
      this.remove();
    }
    append(...nodes) {
      for (const node of nodes) {
        if (typeof node === 'string') this.text += node;
        else this.insertBefore(node, null);
      }
    }
    insertBefore(node, next) {
      node.remove();
      node.parentNode = this;
      this.children.splice(next ? this.children.indexOf(next) : this.children.length, 0, node);
    }
    remove() {
      if (this.parentNode) this.parentNode.children.splice(this.parentNode.children.indexOf(this), 1);
      this.parentNode = null;
    }
    cloneNode(deep) {
      const copy = new Element(this.tagName, Object.fromEntries(this.attributes), deep ? this.children.map((child) => child.cloneNode(true)) : []);
      copy.text = this.text;
      if (this.content) copy.content = this.content.cloneNode(true);
      return copy;
    }
    addEventListener(type, listener) {
      (this.listeners[type] ||= []).push(listener);
    }
    /** Dispatches a bubbling event at this element; returns it. */
    dispatch(type, init = {}) {
      const event = { type, target: this, defaultPrevented: false, ...init };
      event.preventDefault = () => (event.defaultPrevented = true);
      for (let el = this; el; el = el.parentNode) for (const listener of el.listeners[type] || []) listener(event);
      return event;
    }
    focus() {
      document.activeElement = this;
    }
    get parentElement() {
      return this.parentNode;
    }
    contains(node) {
      for (let el = node; el; el = el.parentNode) if (el === this) return true;
      return false;
    }
    // In the page: under one of its outlets (the fake has no <body> holding them).
    get isConnected() {
      return Object.values(page).some((root) => root.contains(this));
    }
  }

  /** An element; a 'template' takes its children as its content, as in a page. */
  const h = (tagName, attributes, ...children) => {
    if (tagName !== 'template') return new Element(tagName, attributes, children);
    return Object.assign(new Element(tagName, attributes), { content: new Element('#fragment', {}, children) });
  };

  const page = { outlet: h('main'), modals: h('div'), banner: h('div') };
  const ids = { 'footlight-outlet': page.outlet, 'footlight-modal': page.modals, 'footlight-banner': page.banner };
  const document = {
    readyState: 'loading',
    activeElement: null,
    documentElement: h('html'),
    addEventListener: (type, listener) => documentListeners.push([type, listener]),
    getElementById: (id) => ids[id] ?? null,
    querySelector(selector) {
      const name = /^template\[data-stage="(.*)"\]$/.exec(selector)?.[1];
      return name in templates ? h('template', { 'data-stage': name }, ...templates[name](h)) : null;
    },
    createElement: (tagName) => h(tagName, {}),
  };

  class WebSocket {
    constructor(url, protocol) {
      Object.assign(this, { url, protocol, readyState: 0, sent: [] });
      sockets.push(this);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.readyState = 3;
    }
    // For the test: the server's side.
    open() {
      this.readyState = 1;
      this.onopen();
    }
    receive(message) {
      this.onmessage({ data: JSON.stringify(message) });
    }
  }

  const storage = new Map();
  const window = {
    document,
    WebSocket,
    location: { protocol: 'http:', host: 'footlight.test', pathname: '/', search: '', href: 'http://footlight.test/' },
    history: { state: null, pushState() {}, replaceState() {}, back() {}, go() {} },
    sessionStorage: {
      getItem: (key) => (storage.has(key) ? storage.get(key) : null),
      setItem: (key, value) => storage.set(key, String(value)),
      removeItem: (key) => storage.delete(key),
    },
    CSS: { escape: (text) => text },
    setTimeout: (fn, ms = 0) => clock.set(fn, ms),
    clearTimeout: (id) => clock.clear(id),
    setInterval: () => 0, // the ping: never due in these tests
    clearInterval() {},
    addEventListener: (type, listener) => (windowListeners.push(type), (windowHandlers[type] ||= []).push(listener)),
    scrollY: 0,
    scrollTo() {},
    open() {},
    console: { ...console, error: (...args) => errors.push(args.join(' ')) },
  };
  window.window = window;
  window.self = window;
  const fire = (type, event = {}) => (windowHandlers[type] || []).forEach((listener) => listener(event));
  return { window, document, page, clock, sockets, errors, storage, documentListeners, windowListeners, fire };
}

/**
 * Runs the six files in page order in one context, as the page's script tags do. Returns, for each
 * file, the globals it added and the names of existing globals whose value it changed (`writes`),
 * and a check that every file's exports are still what they were just after that file ran.
 */
function loadPage(window) {
  const context = vm.createContext(window);
  const writes = [];
  const exported = [];
  for (const [file, global] of PAGE) {
    const before = new Map(Object.getOwnPropertyNames(window).map((name) => [name, window[name]]));
    vm.runInContext(fs.readFileSync(path.join(folder, file), 'utf8'), context, { filename: file });
    const names = Object.getOwnPropertyNames(window);
    writes.push({
      file,
      added: names.filter((name) => !before.has(name)),
      changed: names.filter((name) => before.has(name) && before.get(name) !== window[name]),
    });
    exported.push([global, window[global], { ...window[global] }, JSON.stringify(window[global])]);
  }
  const exportsUnchanged = () => {
    for (const [global, value, copy, json] of exported) {
      assert.equal(window[global], value, `the global ${global}`);
      assert.deepEqual(Object.keys(value), Object.keys(copy), `the names ${global} exports`);
      for (const name of Object.keys(copy)) assert.equal(value[name], copy[name], `${global}.${name}`);
      assert.equal(JSON.stringify(value), json, `${global}'s data`);
    }
  };
  return { writes, exportsUnchanged };
}

/** A stage template with an output of each kind the wiring touches, a list and two events. */
const demoTemplate = (h) => [
  h('p', { class: 'count', 'data-text': 'count' }),
  h('p', { 'data-text': 'missing' }),
  h('button', { type: 'button', 'data-on-click': 'increment' }),
  h('input', { type: 'text', 'data-value': 'name', 'data-on-input': 'name' }),
  h('ol', { 'data-list': 'rows' }, h('template', {}, h('li', {}, h('button', { type: 'button', 'data-on-click': 'open', 'data-text': 'title' })))),
];

/** A page with `templates`, booted, whose first socket joined a new session `token`. */
function bootedPage(templates, token) {
  const browser = fakeBrowser(templates);
  loadPage(browser.window);
  browser.document.readyState = 'interactive';
  for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
  const [socket] = browser.sockets;
  socket.open();
  socket.receive({ t: 'joined', v: 1, token, resumed: false, events: 0 });
  return browser;
}

/** A booted page whose first socket joined a new session `token` showing stage s1 (template demo). */
function joinedPage(token) {
  const browser = bootedPage({ demo: demoTemplate }, token);
  browser.sockets[0].receive({ t: 'mount', seq: 1, stage: 's1', template: 'demo', place: 'root', doc: { count: 1, name: '', rows: [] }, events: {} });
  return browser;
}

describe('the runtime in a page', () => {
  test('each file takes only files loaded before it, the same ones under Node and in a page', () => {
    const globalOf = new Map(PAGE);
    PAGE.forEach(([file, global], index) => {
      const earlier = PAGE.slice(0, index).map(([name]) => name);
      const { required, read } = wrapperInputs(file);
      for (const name of required) assert.ok(earlier.includes(name), `${file} requires ${name}, which is not loaded before it`);
      assert.deepEqual(read, required.map((name) => globalOf.get(name)), `${file} reads the globals of the files it requires, in the same order`);
      assert.ok(!read.includes(global), `${file} does not read its own global`);
    });
    assert.deepEqual(wrapperInputs('events.js').required, ['constants.js', 'bindings.js']);
    assert.deepEqual(wrapperInputs('runtime.js').required, ['constants.js', 'patch.js', 'bindings.js', 'events.js', 'transport.js', 'history.js', 'hooks.js', 'stages.js', 'commands.js']);
  });

  test('each file sets one global of its own and writes no other, nor into another file’s', () => {
    const { window } = fakeBrowser({});
    const { writes, exportsUnchanged } = loadPage(window);
    assert.deepEqual(
      writes,
      PAGE.map(([file, global]) => ({ file, added: [global], changed: [] })),
    );
    exportsUnchanged(); // by the files loaded later
    assert.deepEqual(JSON.parse(JSON.stringify(window.FootlightConstants)), JSON.parse(JSON.stringify(K)));
    const exportNames = {
      FootlightPointer: ['parsePointer', 'formatPointer', 'arrayIndex'],
      FootlightPatch: ['PatchError', 'applyPatch', 'changedPaths'],
      FootlightLists: ['planList'],
      FootlightBindings: ['parseSlot', 'parseBinding', 'readPath', 'truthy', 'init', 'bindTree', 'render', 'release', 'unlock', 'rowId'],
      FootlightEvents: ['gate', 'controlValue', 'formValue', 'init', 'listen', 'flush', 'notSent', 'consumed', 'isHeld'],
      FootlightSession: ['backoff', 'Session'],
      FootlightStorage: ['open', 'saveToken', 'saveEvents', 'savePage', 'language'],
      FootlightBanner: ['show'],
      FootlightKeeping: ['restore', 'keep', 'shown', 'keptValues', 'renamed', 'forget'],
      FootlightTransport: ['connect', 'sendEvent', 'sendReport', 'connection'],
      FootlightHistory: ['init', 'settle', 'push', 'remove', 'top', 'topPushed', 'hasModal'],
      FootlightHooks: ['init', 'register', 'sync', 'destroy', 'push'],
      FootlightStages: ['init', 'report', 'keep', 'mount', 'render', 'unmount', 'reset', 'forget', 'rename', 'get', 'all'],
      FootlightCommands: ['run'],
      footlight: ['send', 'hook', 'state'],
    };
    for (const [global, names] of Object.entries(exportNames)) {
      assert.deepEqual(Object.keys(window[global]), names, global);
      for (const name of names) assert.equal(typeof window[global][name], 'function', `${global}.${name}`);
    }
  });

  test('the page boots on DOMContentLoaded, mounts, sends events and reports, and holds typed input until acknowledged', () => {
    const browser = fakeBrowser({ demo: demoTemplate });
    const { window, document, page, sockets, errors, storage } = browser;
    const globals = Object.getOwnPropertyNames(window);
    const { exportsUnchanged } = loadPage(window);
    const state = () => JSON.parse(JSON.stringify(window.footlight.state()));

    // Before DOMContentLoaded: the debug handle, and nothing connected.
    assert.equal(typeof window.footlight.send, 'function');
    assert.deepEqual(browser.documentListeners.map(([type]) => type), ['DOMContentLoaded'], 'boots on DOMContentLoaded');
    assert.deepEqual(state(), { connected: false, joined: false, token: null, lastSeq: 0, unacknowledged: 0, documents: {} });
    assert.equal(sockets.length, 0);

    // Boot: one socket to /ws with the subprotocol; join on open.
    document.readyState = 'interactive';
    for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
    // pagehide flushes typed values into the kept queue, and keeps the address the page
    // showed (a typed link to another opens a session of its own), which pageshow from the
    // back-forward cache drops again; online reconnects at once.
    assert.deepEqual(browser.windowListeners, ['pagehide', 'popstate', 'pagehide', 'pageshow', 'online']);
    assert.equal(sockets.length, 1);
    const socket = sockets[0];
    assert.deepEqual([socket.url, socket.protocol], ['ws://footlight.test/ws', 'footlight.v1']);
    assert.equal(document.documentElement.classList.contains('footlight-disconnected'), false);
    socket.open();
    assert.deepEqual(socket.sent.splice(0), [{ t: 'join', v: 1, path: '/' }]);
    socket.receive({ t: 'joined', v: 1, token: 'tok', resumed: false, events: 0 });
    assert.equal(storage.get('footlight.token'), 'tok');
    assert.equal(state().joined, true);

    // A mount binds the template: a missing slot is reported (bindings → runtime → transport).
    const doc = { count: 1, name: 'Ada', rows: [{ id: 'a', title: 'First' }] };
    socket.receive({ t: 'mount', seq: 1, stage: 's1', template: 'demo', place: 'root', doc, events: {} });
    const [stage] = page.outlet.children;
    assert.equal(stage.getAttribute('data-stage-id'), 's1');
    assert.equal(stage.className, 'footlight-stage');
    const [count] = stage.querySelectorAll('[data-text]');
    const [increment, open] = stage.querySelectorAll('[data-on-click]');
    const input = stage.querySelector('input');
    assert.equal(count.textContent, '1');
    assert.equal(input.value, 'Ada');
    assert.equal(stage.querySelector('ol').children.length, 1);
    assert.equal(open.textContent, 'First');
    assert.deepEqual(socket.sent.splice(0), [{ t: 'report', stage: 's1', message: 'no slot "missing" in the document' }]);
    assert.deepEqual(errors.splice(0), ['footlight: stage "s1": no slot "missing" in the document']);

    // Events go out numbered (events → transport); a row's event carries its id (bindings → events).
    increment.dispatch('click');
    open.dispatch('click');
    input.focus();
    input.value = 'Adam';
    input.dispatch('input');
    assert.deepEqual(socket.sent.splice(0), [
      { t: 'event', n: 1, stage: 's1', name: 'increment' },
      { t: 'event', n: 2, stage: 's1', name: 'open', value: { id: 'a' } },
      { t: 'event', n: 3, stage: 's1', name: 'name', value: 'Adam' },
    ]);
    assert.equal(increment.getAttribute('aria-busy'), 'true');
    assert.equal(increment.classList.contains('footlight-busy'), true);

    // A patch updates the count but not the input the user is typing in (bindings → events.isHeld)…
    socket.receive({ t: 'patch', seq: 2, stage: 's1', ops: [{ op: 'replace', path: '/count', value: 2 }, { op: 'replace', path: '/name', value: 'Ad' }] });
    assert.equal(count.textContent, '2');
    assert.equal(input.value, 'Adam');
    // …until its event is acknowledged (transport → events.consumed → bindings.release).
    socket.receive({ t: 'ack', n: 3 });
    assert.equal(input.value, 'Ad');
    assert.equal(increment.getAttribute('aria-busy'), null);
    assert.equal(increment.classList.contains('footlight-busy'), false);
    browser.clock.advance(K.ACK_MS);
    assert.deepEqual(socket.sent.splice(0), [{ t: 'ack', seq: 2 }]);

    // The debug handle sends and shows the documents.
    assert.equal(window.footlight.send('s1', 'increment'), 4);
    assert.deepEqual(socket.sent.splice(0), [{ t: 'event', n: 4, stage: 's1', name: 'increment' }]);
    assert.deepEqual(state(), {
      connected: true,
      joined: true,
      token: 'tok',
      lastSeq: 2,
      unacknowledged: 1,
      documents: { s1: { count: 2, name: 'Ad', rows: [{ id: 'a', title: 'First' }] } },
    });
    assert.deepEqual(errors, []);

    // Booting and running wrote no global but the six files' own, and nothing into any file's exports.
    assert.deepEqual(Object.getOwnPropertyNames(window), [...globals, ...PAGE.map(([, global]) => global)]);
    exportsUnchanged();
  });

  test('close 4002 (the app started over): a new session at once, with no token and no waiting events', () => {
    const browser = joinedPage('old');
    const { window, page, sockets, storage } = browser;
    const first = sockets[0];
    window.footlight.send('s1', 'increment'); // sent, never acknowledged
    assert.equal(storage.get('footlight.token'), 'old');
    assert.ok(storage.get('footlight.events'));

    first.receive({ t: 'bye', reason: 'signed out in another tab' });
    first.readyState = 3;
    first.onclose({ code: 4002 });
    assert.equal(sockets.length, 2, 'dials again with no backoff');
    assert.equal(storage.get('footlight.token') ?? null, null);
    assert.equal(storage.get('footlight.events') ?? null, null);
    const second = sockets[1];
    second.open();
    assert.deepEqual(second.sent.splice(0), [{ t: 'join', v: 1, path: '/' }], 'a fresh join: no token, no events again');
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1 });
    second.receive({ t: 'mount', seq: 1, stage: 's9', template: 'demo', place: 'root', doc: { count: 0, name: '', rows: [] }, events: {} });
    browser.clock.advance(K.SWEEP_MS); // the old session's stage goes
    assert.deepEqual(page.outlet.children.map((stage) => stage.getAttribute('data-stage-id')), ['s9']);
    assert.equal(window.footlight.state().token, 'new');
    assert.equal(window.footlight.state().unacknowledged, 0);
  });

  test('a resume the server could not honour: unacknowledged events are not sent again, and the page says so', () => {
    for (const pending of [true, false]) {
      const browser = joinedPage('old');
      const { window, document, page, sockets } = browser;
      const first = sockets[0];
      if (pending) window.footlight.send('s1', 'increment'); // sent, never acknowledged
      first.readyState = 3;
      first.onclose({ code: 1006 }); // the server died
      browser.clock.advance(10_000);
      const second = sockets[1];
      second.open();
      // What the page shows goes with the resume; this server does not rebuild (no `rebuilt`).
      assert.deepEqual(second.sent.splice(0, 1), [{ t: 'join', v: 1, path: '/', token: 'old', seq: 1, restore: [{ template: 'demo' }] }]);
      second.receive({ t: 'error', code: 'unknown-session', message: 'the session expired or never existed; starting a new one' });
      second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1 });
      second.receive({ t: 'mount', seq: 1, stage: 's1', template: 'demo', place: 'root', doc: { count: 0, name: '', rows: [] }, events: {} });
      assert.deepEqual(second.sent.filter((m) => m.t === 'event'), [], 'nothing sent again: it may have been applied');
      assert.equal(page.banner.textContent, pending ? K.TEXT_NOT_SENT : '');
      assert.equal(document.documentElement.classList.contains('footlight-disconnected'), false, 'connected');
      window.footlight.send('s1', 'increment'); // the next action clears the notice
      assert.equal(page.banner.textContent, '');
      assert.deepEqual(second.sent.filter((m) => m.t === 'event'), [{ t: 'event', n: 1, stage: 's1', name: 'increment' }]);
    }
  });

  test('a server that lost the session rebuilds it: stages keep their elements, safe events go again, the others are marked', () => {
    const templates = {
      demo: (h) => [
        ...demoTemplate(h),
        h('input', { type: 'password', 'data-on-input': 'secret' }),
      ],
    };
    const browser = fakeBrowser(templates);
    const { window, document, page, sockets, storage } = browser;
    loadPage(window);
    document.readyState = 'interactive';
    for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
    const first = sockets[0];
    first.open();
    first.receive({ t: 'joined', v: 1, token: 'old', resumed: false, events: 0 });
    const events = { name: { keep: true }, secret: { keep: true }, increment: { repeat: true } };
    const doc = { count: 1, name: '', rows: [{ id: 'a', title: 'First' }] };
    first.receive({ t: 'mount', seq: 1, stage: 'demo-4', template: 'demo', place: 'root', doc, events });
    first.receive({ t: 'mount', seq: 2, stage: 'demo-5', template: 'demo', place: 'push', url: '/more', doc, events: {} });
    const [stage, pushed] = page.outlet.children;
    const [name, secret] = stage.querySelectorAll('input');
    const [increment, open] = stage.querySelectorAll('[data-on-click]');
    name.value = 'Adam';
    name.dispatch('input');
    secret.value = 'hunter2';
    secret.dispatch('input');
    increment.dispatch('click');
    open.dispatch('click');
    assert.equal(first.sent.filter((m) => m.t === 'event').length, 4);
    // The kept page: recoverable values, never a password field's.
    const kept = [
      { id: 'demo-4', template: 'demo', values: { name: 'Adam' } },
      { id: 'demo-5', template: 'demo', place: 'push', url: '/more' },
    ];
    assert.deepEqual(JSON.parse(storage.get('footlight.page')), { at: '/', stages: kept });

    first.readyState = 3;
    first.onclose({ code: 1006 }); // the server died with the four events unacknowledged
    browser.clock.advance(10_000);
    const second = sockets[1];
    second.open();
    const restore = kept.map(({ id, ...stage }) => stage);
    assert.deepEqual(second.sent.splice(0), [{ t: 'join', v: 1, path: '/', token: 'old', seq: 2, restore }]);
    // Rebuilt: the root came back (its value replayed by the server), the pushed stage did not.
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['demo', null] });
    assert.equal(stage.getAttribute('data-stage-id'), 'demo', 'the stage element took its new id');
    assert.deepEqual(
      second.sent.splice(0),
      [
        { t: 'event', n: 1, stage: 'demo', name: 'name', value: 'Adam' }, // recoverable: a value, harmless twice
        { t: 'event', n: 2, stage: 'demo', name: 'increment' }, // declared safe to repeat
      ],
      'only what is safe goes again, renumbered, to the new id',
    );
    second.receive({ t: 'mount', seq: 1, stage: 'demo', template: 'demo', doc: { ...doc, name: 'Adam' }, events });
    assert.equal(page.outlet.children[0], stage, 'the same element, focus and typed text and all');
    assert.equal(name.value, 'Adam');
    assert.equal(open.classList.contains('footlight-not-sent'), true, 'the row click may have been applied: marked, not sent');
    assert.equal(secret.classList.contains('footlight-not-sent'), true, 'a password is never kept: marked too');
    assert.equal(name.classList.contains('footlight-not-sent'), false, 'its value came back with the stage');
    assert.equal(increment.classList.contains('footlight-not-sent'), false);
    assert.equal(page.banner.textContent, K.TEXT_NOT_SENT);
    browser.clock.advance(K.SWEEP_MS);
    assert.equal(pushed.parentNode, null, 'the stage that was not rebuilt is gone');
    assert.deepEqual(JSON.parse(storage.get('footlight.page')).stages, [{ id: 'demo', template: 'demo', values: { name: 'Adam' } }]);
    open.dispatch('click'); // trying again clears the mark
    assert.equal(open.classList.contains('footlight-not-sent'), false);
    assert.deepEqual(second.sent.splice(0).filter((m) => m.t === 'event'), [{ t: 'event', n: 3, stage: 'demo', name: 'open', value: { id: 'a' } }]);
  });

  test('a form that holds a password is never kept, even from a submit declared recoverable', () => {
    for (const password of [true, false]) {
      const form = (h) => [
        h('form', { 'data-on-submit': 'save' }, h('input', { type: 'text', name: 'email' }), ...(password ? [h('input', { type: 'password', name: 'secret' })] : [])),
      ];
      const { page, sockets, storage } = bootedPage({ form }, 'tok');
      const [socket] = sockets;
      socket.receive({ t: 'mount', seq: 1, stage: 'form', template: 'form', doc: {}, events: { save: { keep: true } } });
      const [stage] = page.outlet.children;
      const [email, secret] = stage.querySelectorAll('input');
      email.value = 'ada@example.com';
      if (secret) secret.value = 'hunter2';
      stage.querySelector('form').dispatch('submit');
      assert.equal(socket.sent.filter((m) => m.t === 'event').length, 1, 'sent either way');
      const [kept] = JSON.parse(storage.get('footlight.page')).stages;
      assert.deepEqual(kept.values, password ? undefined : { save: { email: 'ada@example.com' } });
    }
  });

  test('across a rebuild the back button is sent again to the new stage; a session not rebuilt forgets the kept values', () => {
    const browser = joinedPage('old');
    const { window, page, sockets, storage } = browser;
    const [first] = sockets;
    first.receive({ t: 'mount', seq: 2, stage: 'lot-3', template: 'demo', place: 'push', url: '/more', doc: { count: 1, name: '', rows: [] }, events: { name: { keep: true } } });
    const pushed = page.outlet.children[1];
    pushed.querySelector('input').value = 'kept';
    pushed.querySelector('input').dispatch('input');
    window.history.state = null;
    browser.fire('popstate'); // back, never acknowledged: the server died
    assert.deepEqual(JSON.parse(storage.get('footlight.page')).stages.map((st) => st.id), ['s1'], 'a stage going back is not kept');
    first.readyState = 3;
    first.onclose({ code: 1006 });
    browser.clock.advance(10_000);
    const second = sockets[1];
    second.open();
    second.sent.splice(0);
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['demo'] });
    assert.deepEqual(
      second.sent.filter((m) => m.t === 'event').map((m) => [m.n, m.stage, m.name]),
      [],
      'the pushed stage was not restored: its events have no stage to go to',
    );
    assert.equal(page.banner.textContent, K.TEXT_NOT_SENT, 'the typed value is reported; the back, which happened, is not');
    const backOnly = new Session('t', { next: 3, queue: [{ t: 'event', n: 2, stage: 'x', name: '@back' }], again: { 2: ['x', '@back'] } });
    assert.deepEqual(backOnly.joined({ t: 'joined', v: 1, token: 'u', resumed: false, events: 0, rebuilt: [] }), []);
    assert.deepEqual(backOnly.lost, [], 'a back alone is no lost action');

    // A session that starts over (not rebuilt) keeps none of the old values.
    const { window: w2, page: p2, sockets: s2, storage: st2 } = joinedPage('old');
    s2[0].receive({ t: 'mount', seq: 2, stage: 's1', template: 'demo', doc: { count: 1, name: '', rows: [] }, events: { name: { keep: true } } });
    const input = p2.outlet.children[0].querySelector('input');
    input.value = 'before';
    input.dispatch('input');
    assert.deepEqual(JSON.parse(st2.get('footlight.page')).stages[0].values, { name: 'before' });
    s2[0].readyState = 3;
    s2[0].onclose({ code: 4002 });
    s2[1].open();
    s2[1].receive({ t: 'joined', v: 1, token: 'fresh', resumed: false, events: 0, mounts: 1 });
    s2[1].receive({ t: 'mount', seq: 1, stage: 's1', template: 'demo', doc: { count: 0, name: '', rows: [] }, events: { name: { keep: true } } });
    assert.equal(JSON.parse(st2.get('footlight.page')).stages[0].values, undefined, 'the old session\'s value is not the new one\'s');
    assert.ok(w2);
  });

  /** A lot with a bid form (Enter submits it) and a button, neither safe to repeat; booted, mounted as lot-1. */
  function lotPage() {
    const lot = (h) => [h('form', { 'data-on-submit': 'bid' }, h('input', { type: 'text', name: 'amount' })), h('button', { type: 'button', 'data-on-click': 'watch' })];
    const browser = bootedPage({ lot }, 'old');
    browser.sockets[0].receive({ t: 'mount', seq: 1, stage: 'lot-1', template: 'lot', doc: {}, events: {} });
    const [stage] = browser.page.outlet.children;
    const form = stage.querySelector('form');
    const amount = stage.querySelector('input');
    amount.form = form; // the fake has no form owner
    const bid = (value) => {
      amount.value = value;
      amount.dispatch('keydown', { key: 'Enter' });
    };
    return { ...browser, form, bid, watch: stage.querySelector('button') };
  }

  /**
   * Loses socket `index` (the server died), runs `meanwhile` while the page reconnects, and opens
   * the next socket; returns it, its join (all it sent: events go once joined) taken.
   */
  function redial(browser, index, meanwhile = () => {}) {
    const socket = browser.sockets[index];
    socket.readyState = 3;
    socket.onclose({ code: 1006 });
    meanwhile();
    browser.clock.advance(10_000);
    const next = browser.sockets[index + 1];
    next.open();
    assert.deepEqual(next.sent.splice(0).map((m) => m.t), ['join']);
    return next;
  }

  test('a bid made while the page reconnects was never sent: a rebuild sends it, as it is, to the new stage id', () => {
    const browser = lotPage();
    const { page, sockets, form, bid } = browser;
    // The server died with nothing unacknowledged; Enter in the bid form while the page reconnects.
    const second = redial(browser, 0, () => bid('25'));
    assert.deepEqual(sockets[0].sent.filter((m) => m.t === 'event'), [], 'written to no socket');
    assert.equal(form.getAttribute('aria-busy'), 'true', 'it waits');
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-9'] });
    assert.deepEqual(second.sent.splice(0), [{ t: 'event', n: 1, stage: 'lot-9', name: 'bid', value: { amount: '25' } }]);
    assert.equal(form.classList.contains('footlight-not-sent'), false);
    assert.equal(page.banner.textContent, '', 'nothing was lost');
    second.receive({ t: 'mount', seq: 1, stage: 'lot-9', template: 'lot', doc: {}, events: {} });

    // Written now: if this session is lost too before the bid is consumed, it may have been applied.
    const third = redial(browser, 1);
    third.receive({ t: 'joined', v: 1, token: 'newer', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-12'] });
    assert.deepEqual(third.sent.filter((m) => m.t === 'event'), [], 'not sent a second time');
    assert.equal(page.banner.textContent, K.TEXT_NOT_SENT);
  });

  test('a bid a rebuild sends again keeps its form busy, waiting for its new number; Enter meanwhile sends nothing', () => {
    const browser = lotPage();
    const { page, form, bid } = browser;
    const events = (socket) => socket.sent.splice(0).filter((m) => m.t === 'event');
    const busy = () => [form.getAttribute('aria-busy'), form.classList.contains('footlight-busy')];
    const second = redial(browser, 0, () => bid('25'));
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-9'] });
    assert.deepEqual(events(second), [{ t: 'event', n: 1, stage: 'lot-9', name: 'bid', value: { amount: '25' } }]);
    assert.deepEqual(busy(), ['true', true], 'still waiting: for event 1 of the new session now');
    bid('25');
    assert.deepEqual(events(second), [], 'a second Enter while it waits sends no second bid');
    second.receive({ t: 'mount', seq: 1, stage: 'lot-9', template: 'lot', doc: {}, events: {} });
    assert.deepEqual(busy(), ['true', true], 'the mount does not consume it');
    bid('25');
    assert.deepEqual(events(second), []);

    // The new session consumes event 1: the form is free again, and its next bid is event 2.
    second.receive({ t: 'ack', n: 1 });
    assert.deepEqual(busy(), [null, false]);
    assert.equal(form.classList.contains('footlight-not-sent'), false);
    assert.equal(page.banner.textContent, '');
    bid('30');
    assert.deepEqual(events(second), [{ t: 'event', n: 2, stage: 'lot-9', name: 'bid', value: { amount: '30' } }]);
    assert.deepEqual(busy(), ['true', true]);
    // …consumed with a state message's `ack`.
    second.receive({ t: 'patch', seq: 2, stage: 'lot-9', ops: [], ack: 2 });
    assert.deepEqual(busy(), [null, false]);
  });

  test('a bid sent again to one rebuilt session and lost with it is marked at its form, which is released', () => {
    const browser = lotPage();
    const { page, form, bid } = browser;
    const second = redial(browser, 0, () => bid('25'));
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-9'] });
    assert.deepEqual(second.sent.splice(0).map((m) => [m.t, m.n]), [['event', 1]]);
    second.receive({ t: 'mount', seq: 1, stage: 'lot-9', template: 'lot', doc: {}, events: {} });
    // Written as event 1 of that session, which is lost too before consuming it: it may have been applied.
    const third = redial(browser, 1);
    third.receive({ t: 'joined', v: 1, token: 'newer', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-12'] });
    assert.deepEqual(third.sent.filter((m) => m.t === 'event'), []);
    assert.equal(form.classList.contains('footlight-not-sent'), true, 'marked: the number it waited for was the lost session\'s');
    assert.equal(form.getAttribute('aria-busy'), null, 'released');
    assert.equal(page.banner.textContent, K.TEXT_NOT_SENT);
    bid('26');
    assert.deepEqual(third.sent.splice(0), [{ t: 'event', n: 1, stage: 'lot-12', name: 'bid', value: { amount: '26' } }]);
  });

  test('a bid written to a socket that then dropped is still lost to a rebuild, beside a click made while reconnecting', () => {
    const browser = lotPage();
    const { page, sockets, form, bid, watch } = browser;
    bid('10');
    assert.deepEqual(sockets[0].sent.filter((m) => m.t === 'event').map((m) => m.n), [1], 'written, never acknowledged');
    const second = redial(browser, 0, () => watch.dispatch('click'));
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-9'] });
    assert.deepEqual(second.sent.splice(0), [{ t: 'event', n: 1, stage: 'lot-9', name: 'watch' }], 'the click goes; the bid does not');
    assert.equal(form.classList.contains('footlight-not-sent'), true, 'the bid may have been applied: marked');
    assert.equal(watch.classList.contains('footlight-not-sent'), false);
    assert.equal(page.banner.textContent, K.TEXT_NOT_SENT);
    // The lost bid's form is released, the click's button waits for its new number.
    assert.equal(form.getAttribute('aria-busy'), null);
    assert.equal(watch.getAttribute('aria-busy'), 'true');
    bid('11');
    assert.deepEqual(second.sent.splice(0), [{ t: 'event', n: 2, stage: 'lot-9', name: 'bid', value: { amount: '11' } }], 'Enter bids again');
    second.receive({ t: 'ack', n: 1 });
    assert.equal(watch.getAttribute('aria-busy'), null);
    assert.equal(form.getAttribute('aria-busy'), 'true', 'the new bid waits');
  });

  test('events kept across a reload may have been sent: a rebuild marks them, and sends one made since', () => {
    const browser = fakeBrowser({ lot: (h) => [h('button', { type: 'button', 'data-on-click': 'watch' })] });
    const { window, document, page, sockets, storage } = browser;
    storage.set('footlight.token', 'old');
    storage.set('footlight.url', '/'); // left by the page's pagehide: a reload
    storage.set('footlight.page', JSON.stringify({ at: '/', stages: [{ id: 'lot-1', template: 'lot' }] }));
    const queue = [{ t: 'event', n: 2, stage: 'lot-1', name: 'bid', value: { amount: '25' } }];
    storage.set('footlight.events', JSON.stringify({ next: 3, queue, again: {} }));
    loadPage(window);
    document.readyState = 'interactive';
    for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
    // Nothing shows before the page joins: an event now comes from the debug handle (or a hook).
    assert.equal(window.footlight.send('lot-1', 'watch'), 3);
    const [socket] = sockets;
    socket.open();
    assert.deepEqual(socket.sent.splice(0).map((m) => m.t), ['join']);
    socket.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1, rebuilt: ['lot-9'] });
    assert.deepEqual(socket.sent.splice(0), [{ t: 'event', n: 1, stage: 'lot-9', name: 'watch' }], 'the bid from before the reload is not sent again');
    assert.equal(page.banner.textContent, K.TEXT_NOT_SENT);
  });

  test('components: placed in their host, their events their own, their kept values named by host; gone with a new session', () => {
    const templates = {
      frame: (h) => [h('button', { type: 'button', 'data-on-click': 'close' }), h('div', { 'data-component': 'form' })],
      form: (h) => [
        h('input', { type: 'text', 'data-value': 'name', 'data-on-input': 'name' }),
        h('button', { type: 'button', 'data-on-click': 'save' }),
        h('div', { 'data-include': 'note' }),
      ],
      note: (h) => [h('p', { class: 'note', 'data-text': 'note' })],
    };
    const browser = bootedPage(templates, 't');
    const { page, sockets, storage, clock, errors } = browser;
    const [socket] = sockets;
    const nameOptions = { name: { debounce: 300, keep: true } };
    socket.receive({ t: 'mount', seq: 1, stage: 'frame', template: 'frame', doc: {}, events: {} });
    socket.receive({ t: 'mount', seq: 2, stage: 'form-c1', template: 'form', in: 'frame', at: 'form', doc: { name: '', note: 'hi' }, events: nameOptions });
    const frame = page.outlet.children[0];
    const host = frame.querySelector('[data-component="form"]');
    const form = host.children[0];
    assert.equal(form.className, 'footlight-stage');
    assert.equal(form.getAttribute('data-stage-id'), 'form-c1');
    assert.equal(page.outlet.children.length, 1, 'in its host, not in the outlet');
    assert.equal(form.querySelector('p').textContent, 'hi', 'the included template binds the component\'s slots');
    assert.equal(form.querySelector('[data-include]'), null);

    // Its events are its own; the frame's are the frame's.
    socket.sent.splice(0);
    form.querySelector('button').dispatch('click');
    frame.querySelector('button').dispatch('click');
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event').map((m) => [m.stage, m.name]), [['form-c1', 'save'], ['frame', 'close']]);

    // A click in the frame goes after the input still waiting in the component, in the order done.
    const field = form.querySelector('input');
    field.value = 'A';
    field.dispatch('input');
    socket.sent.splice(0);
    frame.querySelector('button').dispatch('click');
    assert.deepEqual(
      socket.sent.filter((m) => m.t === 'event').map((m) => [m.stage, m.name, m.value]),
      [['form-c1', 'name', 'A'], ['frame', 'close', undefined]],
    );

    // A recoverable value is kept with the frame, named by the host; the component is not named.
    const input = form.querySelector('input');
    input.value = 'Ada';
    input.dispatch('input');
    clock.advance(300);
    const kept = JSON.parse(storage.get('footlight.page')).stages;
    assert.deepEqual(kept, [{ id: 'frame', template: 'frame', values: { 'form/name': 'Ada' } }]);

    // Input still waiting when its component goes is dropped, not sent to a stage that is gone.
    input.value = 'Ada L';
    input.dispatch('input');
    socket.receive({ t: 'unmount', seq: 3, stage: 'form-c1' });
    assert.equal(host.children.length, 0);
    socket.sent.splice(0);
    clock.advance(1_000);
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event'), []);

    // A new session that was not rebuilt: the old session's components go at once.
    socket.receive({ t: 'mount', seq: 4, stage: 'form-c2', template: 'form', in: 'frame', at: 'form', doc: { name: '', note: '' }, events: {} });
    assert.equal(host.children.length, 1);
    socket.readyState = 3;
    socket.onclose({ code: 4002 });
    sockets[1].open();
    sockets[1].receive({ t: 'joined', v: 1, token: 'fresh', resumed: false, events: 0, mounts: 2 });
    assert.equal(host.children.length, 0, 'the old form-c2 is gone before the new session mounts its own');
    sockets[1].receive({ t: 'mount', seq: 1, stage: 'frame', template: 'frame', doc: {}, events: {} });
    sockets[1].receive({ t: 'mount', seq: 2, stage: 'form-c1', template: 'form', in: 'frame', at: 'form', doc: { name: '', note: 'new' }, events: {} });
    assert.equal(host.children.length, 1);
    assert.equal(host.children[0].querySelector('p').textContent, 'new');
    assert.deepEqual(errors, []);
  });

  test('input still waiting in a debounce when the page redials goes with the restore, not after it', () => {
    // Typed while the page reconnects, and the socket open before the debounce is due: the join
    // carries the value (kept with the frame, named by host), or a server that lost the session
    // rebuilds the form without it and the late value goes to a component that is gone.
    const templates = {
      frame: (h) => [h('div', { 'data-component': 'form' })],
      form: (h) => [h('input', { type: 'text', 'data-value': 'name', 'data-on-input': 'name' })],
    };
    const browser = bootedPage(templates, 'old');
    const { page, sockets, clock, errors } = browser;
    const [first] = sockets;
    const events = { name: { debounce: 300, keep: true } };
    first.receive({ t: 'mount', seq: 1, stage: 'frame', template: 'frame', place: 'root', doc: {}, events: {} });
    first.receive({ t: 'mount', seq: 2, stage: 'form-c1', template: 'form', in: 'frame', at: 'form', doc: { name: '' }, events });
    first.readyState = 3;
    first.onclose({ code: 1006 }); // the server died
    const input = page.outlet.children[0].querySelector('input');
    input.value = 'Ada';
    input.dispatch('input'); // waits 300 ms in its debounce
    browser.fire('online'); // the network is back: the page dials at once
    const second = sockets[1];
    second.open();
    const [join, ...rest] = second.sent.splice(0);
    assert.deepEqual(join.restore, [{ template: 'frame', values: { 'form/name': 'Ada' } }]);
    assert.deepEqual(rest, [], 'nothing before `joined`');
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 2, rebuilt: ['frame-1'] });
    // Unacknowledged, it goes again as the restore names it: to the form's host, by host.
    assert.deepEqual(second.sent.splice(0), [{ t: 'event', n: 1, stage: 'frame-1', name: 'form/name', value: 'Ada' }]);
    assert.equal(page.banner.textContent, '', 'nothing was lost');
    second.receive({ t: 'mount', seq: 1, stage: 'frame-1', template: 'frame', place: 'root', doc: {}, events: {} });
    second.receive({ t: 'mount', seq: 2, stage: 'form-c2', template: 'form', in: 'frame-1', at: 'form', doc: { name: 'Ada' }, events });
    clock.advance(1_000);
    assert.deepEqual(second.sent.filter((m) => m.t === 'event'), [], 'nothing late');
    // The rebuilt form took over the element in its place: focus and what is typed next stay.
    const host = page.outlet.children[0].querySelector('[data-component="form"]');
    assert.equal(host.children.length, 1);
    assert.equal(host.children[0].getAttribute('data-stage-id'), 'form-c2');
    assert.equal(host.children[0].querySelector('input'), input, 'the same element');
    assert.equal(input.value, 'Ada');
    input.value = 'Ada L';
    input.dispatch('input');
    clock.advance(300);
    assert.deepEqual(second.sent.splice(0).filter((m) => m.t === 'event'), [{ t: 'event', n: 2, stage: 'form-c2', name: 'name', value: 'Ada L' }]);

    // Another rebuild whose frame places a component of another template there: a new element.
    second.readyState = 3;
    second.onclose({ code: 1006 });
    browser.fire('online');
    const third = sockets[2];
    third.open();
    third.receive({ t: 'joined', v: 1, token: 'newer', resumed: false, events: 0, mounts: 2, rebuilt: ['frame-7'] });
    third.receive({ t: 'mount', seq: 1, stage: 'frame-7', template: 'frame', place: 'root', doc: {}, events: {} });
    third.receive({ t: 'mount', seq: 2, stage: 'frame-c9', template: 'frame', in: 'frame-7', at: 'form', doc: {}, events: {} });
    assert.equal(host.children.length, 1);
    assert.equal(host.children[0].getAttribute('data-stage-id'), 'frame-c9');
    assert.equal(host.querySelector('input'), null, 'the old form is gone');
    assert.deepEqual(errors, []);
  });

  test('a component placed in a modal just shown takes focus at its autofocus, unless the user moved focus meanwhile', () => {
    const templates = {
      dialog: (h) => [
        h('button', { type: 'button', class: 'close', 'data-on-click': 'close' }),
        h('button', { type: 'button', class: 'help', 'data-on-click': 'help' }),
        h('div', { 'data-component': 'form' }),
        h('div', { 'data-component': 'extra' }),
      ],
      form: (h) => [h('input', { type: 'text', autofocus: '' })],
    };
    const { page, sockets, document, errors } = bootedPage(templates, 't');
    const [socket] = sockets;
    socket.receive({ t: 'mount', seq: 1, stage: 'd1', template: 'dialog', place: 'modal', doc: {}, events: {} });
    const first = page.modals.children[0];
    assert.equal(document.activeElement, first.querySelector('button'), 'the modal takes focus at its first control');
    socket.receive({ t: 'mount', seq: 2, stage: 'form-c1', template: 'form', in: 'd1', at: 'form', doc: {}, events: {} });
    assert.equal(document.activeElement, first.querySelector('input'), 'its component takes it at its autofocus');
    // A second component, the user still where the first put focus: it takes focus too.
    socket.receive({ t: 'mount', seq: 3, stage: 'extra-c1', template: 'form', in: 'd1', at: 'extra', doc: {}, events: {} });
    assert.equal(document.activeElement, first.querySelector('[data-component="extra"]').querySelector('input'));

    // The user moves focus before the component comes: it stays where the user put it.
    socket.receive({ t: 'mount', seq: 4, stage: 'd2', template: 'dialog', place: 'modal', doc: {}, events: {} });
    const second = page.modals.children[1];
    const help = second.querySelector('button[class="help"]');
    help.focus();
    socket.receive({ t: 'mount', seq: 5, stage: 'form-c2', template: 'form', in: 'd2', at: 'form', doc: {}, events: {} });
    assert.ok(second.querySelector('input'), 'the component is placed');
    assert.equal(document.activeElement, help, 'and takes no focus from the user');
    assert.deepEqual(errors, []);
  });

  test('a template includes others up to 8 deep; a missing template, or one included deeper, is reported', () => {
    const templates = {
      page: (h) => [h('div', { 'data-include': 'nested' }), h('div', { 'data-include': 'nowhere' })],
      nested: (h) => [h('p', { 'data-text': 'note' }), h('div', { 'data-include': 'nested' })],
    };
    const browser = bootedPage(templates, 't');
    const { page, sockets, errors } = browser;
    const [socket] = sockets;
    socket.sent.splice(0);
    socket.receive({ t: 'mount', seq: 1, stage: 's1', template: 'page', doc: { note: 'hi' }, events: {} });
    const stage = page.outlet.children[0];
    assert.equal(stage.querySelectorAll('p').length, 8, 'eight levels of includes');
    assert.ok(stage.querySelectorAll('p').every((p) => p.textContent === 'hi'));
    assert.equal(stage.querySelectorAll('[data-include]').length, 2, 'the ninth level and the missing one stay as they are');
    const reports = [
      'no <template data-stage="nested"> in the page, or included 8 deep',
      'no <template data-stage="nowhere"> in the page',
    ];
    assert.deepEqual(errors.splice(0), reports.map((report) => `footlight: stage "s1": ${report}`));
    assert.deepEqual(socket.sent.filter((m) => m.t === 'report').map((m) => m.message), reports);

    socket.receive({ t: 'mount', seq: 2, stage: 's2', template: 'absent', doc: {}, events: {} });
    assert.deepEqual(errors.splice(0), ['footlight: stage "s2": no <template data-stage="absent"> in the page']);
    assert.equal(page.outlet.children.length, 1, 'no element for a stage without its template');
    socket.receive({ t: 'patch', seq: 3, stage: 's2', ops: [{ op: 'add', path: '/a', value: 1 }] });
    assert.equal(JSON.stringify(browser.window.footlight.state().documents.s2), '{"a":1}', 'its document still follows the server');
    assert.deepEqual(errors, []);
  });

  test('a copy of a live tab (a token and no address left) rebuilds a session of its own; a reload resumes with what it kept', () => {
    const kept = [
      { id: 'demo', template: 'demo', values: { name: 'Ada' } },
      { id: 'demo-2', template: 'demo', place: 'push', url: '/more', values: { name: 'Bob' } },
    ];
    for (const copy of [true, false]) {
      const browser = fakeBrowser({ demo: demoTemplate });
      const { window, document, sockets, storage } = browser;
      storage.set('footlight.token', 'original');
      storage.set('footlight.page', JSON.stringify({ at: '/', stages: kept }));
      storage.set('footlight.events', JSON.stringify({ next: 3, queue: [{ t: 'event', n: 2, stage: 'demo', name: 'increment' }], again: {} }));
      if (!copy) storage.set('footlight.url', '/'); // left by the page's pagehide: a reload
      loadPage(window);
      document.readyState = 'interactive';
      for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
      assert.equal(storage.has('footlight.url'), false, 'dropped while the page shows');
      const [socket] = sockets;
      socket.open();
      const restore = kept.map(({ id, ...stage }) => stage);
      if (copy) {
        assert.deepEqual(socket.sent.splice(0), [{ t: 'join', v: 1, path: '/', restore }], 'no token: the original keeps its session');
        assert.equal(storage.has('footlight.events'), false, "the original's events are the original's");
      } else {
        assert.deepEqual(socket.sent.splice(0), [{ t: 'join', v: 1, path: '/', token: 'original', seq: 0, restore }]);
      }
      socket.receive({ t: 'joined', v: 1, token: copy ? 'copy' : 'original', resumed: !copy, events: copy ? 0 : 1, mounts: 2, ...(copy ? { rebuilt: ['demo', 'demo-2'] } : {}) });
      assert.equal(storage.get('footlight.token'), copy ? 'copy' : 'original');
      assert.deepEqual(
        socket.sent.filter((m) => m.t === 'event'),
        copy ? [] : [{ t: 'event', n: 2, stage: 'demo', name: 'increment' }],
        'a resume sends its unconsumed events again',
      );
      socket.receive({ t: 'mount', seq: 1, stage: 'demo', template: 'demo', doc: { count: 1, name: 'Ada', rows: [] }, events: { name: { keep: true } } });
      socket.receive({ t: 'mount', seq: 2, stage: 'demo-2', template: 'demo', place: 'push', url: '/more', doc: { count: 1, name: 'Bob', rows: [] }, events: { name: { keep: true } } });
      assert.deepEqual(JSON.parse(storage.get('footlight.page')).stages, kept, 'the values kept before the load stay kept, each stage\'s');
    }
  });

  test('what a page kept at another address is not restored (a link opened in a new tab may copy sessionStorage)', () => {
    const browser = fakeBrowser({ demo: demoTemplate });
    const { window, document, sockets, storage } = browser;
    storage.set('footlight.token', 'original');
    storage.set('footlight.page', JSON.stringify({ at: '/lots/7', stages: [{ id: 'demo', template: 'demo', values: { name: 'Ada' } }] }));
    loadPage(window);
    document.readyState = 'interactive';
    for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
    sockets[0].open();
    assert.deepEqual(sockets[0].sent.splice(0), [{ t: 'join', v: 1, path: '/' }], 'a copy with nothing of this page to restore');
  });

  test('the kept values are left out of a join that would be too large, and the restore with them if need be', () => {
    const session = new Session('tok');
    session.joined({ t: 'joined', v: 1, token: 'tok', resumed: false, events: 0, max: 400 });
    const small = [{ id: 'a', template: 'a', values: { text: 'x' } }];
    assert.deepEqual(session.join('/', small).restore, [{ template: 'a', values: { text: 'x' } }]);
    assert.deepEqual(session.named, ['a']);
    const big = [{ id: 'a', template: 'a', values: { text: 'x'.repeat(500) } }];
    assert.deepEqual(session.join('/', big).restore, [{ template: 'a' }]);
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, template: `template-${i}` }));
    assert.equal(session.join('/', many).restore, undefined);
    assert.equal(session.named, null);
    // Within the server's limits, or the server would refuse it: 16 stages, 32 values, 2 KB URLs.
    session.joined({ t: 'joined', v: 1, token: 'tok', resumed: true, events: 0, max: 65536 });
    assert.equal(session.join('/', many.slice(0, 17)).restore, undefined);
    assert.equal(session.join('/', many.slice(0, 16)).restore.length, 16);
    const values = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`e${i}`, i]));
    const [trimmed] = session.join('/', [{ id: 'a', template: 'a', place: 'push', url: `/${'x'.repeat(3000)}`, values }]).restore;
    assert.deepEqual(Object.keys(trimmed.values), Array.from({ length: 32 }, (_, i) => `e${i + 8}`), 'the last 32');
    assert.equal(trimmed.url, undefined);
    assert.equal(session.join(`/${'y'.repeat(3000)}`).path, '/', 'an address the server would refuse');
  });

  test('client commands: from the server in order, and declared on an event, run in the page with no round trip', () => {
    const browser = joinedPage('tok');
    const { window, document, page, sockets, errors } = browser;
    const [socket] = sockets;
    const copied = [];
    window.navigator = { clipboard: { writeText: (text) => (copied.push(text), Promise.resolve()) } };
    document.title = 'Kiosk';
    errors.splice(0); // the demo template's missing slot, reported at mount
    const [stage] = page.outlet.children;
    const input = stage.querySelector('input');
    const count = stage.querySelector('[data-text]');
    socket.receive({
      t: 'run', seq: 2, stage: 's1',
      do: [
        { do: 'focus', at: 'input' },
        { do: 'title', text: 'Night Ferry' },
        { do: 'add-class', class: 'lit', at: '[data-text]' },
        { do: 'copy', text: 'lot-6' },
        { do: 'toggle-class', class: 'lit', at: '[data-text]' },
        { do: 'toggle-class', class: 'open', at: 'input' },
        { do: 'focus', at: 'nav' },
        { do: 'fly', at: 'input' },
        { do: 'toString', at: 'input' }, // a name every object inherits is not a command
        { do: 'set-attr', attr: 'aria-label', values: ['Amount'], at: 'input' },
        { do: 'toggle-attr', attr: 'aria-expanded', values: ['true', 'false'], at: 'input' },
        { do: 'toggle-attr', attr: 'aria-expanded', values: ['true', 'false'], at: 'input' },
        { do: 'toggle-attr', attr: 'aria-expanded', values: ['true', 'false'], at: 'input' },
      ],
    });
    assert.equal(input.getAttribute('aria-label'), 'Amount');
    assert.equal(input.getAttribute('aria-expanded'), 'true', 'unset, then true, false, true');
    assert.equal(document.activeElement, input);
    assert.equal(document.title, 'Night Ferry');
    assert.equal(count.classList.contains('lit'), false, 'added, then toggled off');
    assert.equal(input.classList.contains('open'), true);
    assert.deepEqual(copied, ['lot-6']);
    assert.deepEqual(errors.splice(0), [
      'footlight: stage "s1": no element "nav" for the command "focus"',
      'footlight: stage "s1": unknown command "fly"',
      'footlight: stage "s1": unknown command "toString"',
    ]);
    assert.equal(window.footlight.state().lastSeq, 2, 'a state message, in seq order');

    // Declared on an event: the page runs it; the page's alone sends nothing, the other is sent too.
    socket.receive({
      t: 'mount', seq: 3, stage: 's2', template: 'demo', place: 'push', url: '/more', doc: { count: 1, name: '', rows: [] },
      events: { increment: { run: [{ do: 'toggle-class', class: 'open', at: 'ol' }], local: true }, name: { run: [{ do: 'title', text: 'Typing' }] } },
    });
    const pushed = page.outlet.children[1];
    socket.sent.splice(0);
    pushed.querySelector('[data-on-click]').dispatch('click');
    assert.equal(pushed.querySelector('ol').classList.contains('open'), true);
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event'), [], 'the page alone');
    assert.equal(pushed.querySelector('[data-on-click]').getAttribute('aria-busy'), null, 'nothing awaits the server');
    pushed.querySelector('input').value = 'x';
    pushed.querySelector('input').dispatch('input');
    assert.equal(document.title, 'Typing');
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event').map((m) => m.name), ['name']);
    // A stage that set the title gives it back when it goes.
    socket.receive({ t: 'unmount', seq: 4, stage: 's2' });
    assert.equal(document.title, 'Night Ferry');
  });

  test('hooks: mounted, updated when their slot changes, destroyed with their element or stage; pushes and sends', () => {
    const hookTemplate = (h) => [
      h('canvas', { 'data-hook': 'chart:series' }),
      h('ol', { 'data-list': 'rows' }, h('template', {}, h('li', {}, h('span', { 'data-hook': 'row', 'data-text': 'title' })))),
    ];
    const { window, sockets, errors } = bootedPage({ hooks: hookTemplate }, 'tok');
    const [socket] = sockets;
    const calls = [];
    const record = (what) => (h, message) => calls.push([what, h.name, h.el.tagName, JSON.stringify(h.value), JSON.stringify(message)]);
    let chart;
    window.footlight.hook('chart', {
      mounted: (h) => ((chart = h), record('mounted')(h)),
      updated: record('updated'),
      destroyed: record('destroyed'),
      received: record('received'),
    });
    socket.receive({
      t: 'mount', seq: 1, stage: 's1', template: 'hooks', place: 'root', doc: { series: [1, 2], rows: [{ id: 'a', title: 'A' }] },
      events: { pick: {} },
    });
    assert.deepEqual(calls.splice(0), [['mounted', 'chart', 'CANVAS', '[1,2]', undefined]]);
    socket.receive({ t: 'patch', seq: 2, stage: 's1', ops: [{ op: 'add', path: '/series/-', value: 3 }] });
    socket.receive({ t: 'patch', seq: 3, stage: 's1', ops: [{ op: 'replace', path: '/rows/0/title', value: 'A2' }] });
    assert.deepEqual(calls.splice(0), [['updated', 'chart', 'CANVAS', '[1,2,3]', undefined]], 'not for another slot');

    // A hook registered after its elements were shown starts on them; rows bring and take theirs.
    window.footlight.hook('row', { mounted: record('mounted'), destroyed: record('destroyed') });
    assert.deepEqual(calls.splice(0), [['mounted', 'row', 'SPAN', undefined, undefined]]);
    socket.receive({ t: 'patch', seq: 4, stage: 's1', ops: [{ op: 'add', path: '/rows/-', value: { id: 'b', title: 'B' } }] });
    socket.receive({ t: 'patch', seq: 5, stage: 's1', ops: [{ op: 'remove', path: '/rows/0' }] });
    assert.deepEqual(calls.splice(0).map((c) => c.slice(0, 2)), [['mounted', 'row'], ['destroyed', 'row']]);

    // The server pushes to a hook by name; a push no hook takes is reported.
    errors.splice(0);
    socket.receive({ t: 'run', seq: 6, stage: 's1', do: [{ do: 'push', hook: 'chart', value: { mine: 3 } }, { do: 'push', hook: 'map', value: 1 }] });
    assert.deepEqual(calls.splice(0), [['received', 'chart', 'CANVAS', '[1,2,3]', '{"mine":3}']]);
    assert.deepEqual(errors.splice(0), ['footlight: stage "s1": no hook "map" for a pushed message']);

    // A hook sends events of its stage; a callback that throws is reported, and the page goes on.
    socket.sent.splice(0);
    chart.send('pick', 2);
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event').map((m) => [m.stage, m.name, m.value]), [['s1', 'pick', 2]]);
    window.footlight.hook('chart', { updated: () => { throw new Error('no canvas context'); } });
    socket.receive({ t: 'patch', seq: 7, stage: 's1', ops: [{ op: 'add', path: '/series/-', value: 4 }] });
    assert.deepEqual(errors.splice(0), ['footlight: stage "s1": hook "chart" failed in updated: no canvas context']);

    // The stage goes: its hooks are destroyed, and a late send sends nothing.
    window.footlight.hook('chart', { destroyed: record('destroyed') });
    socket.receive({ t: 'unmount', seq: 8, stage: 's1' });
    assert.deepEqual(calls.splice(0).map((c) => c.slice(0, 2)).sort(), [['destroyed', 'chart'], ['destroyed', 'row']]);
    socket.sent.splice(0);
    assert.equal(chart.send('pick', 3), null);
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event'), []);
  });

  test('a list of components comes and goes without rewriting the kept page for each one', () => {
    const templates = {
      frame: (h) => [h('ul', { 'data-list': 'rows' }, h('template', {}, h('li', { 'data-component': 'tally' })))],
      tally: (h) => [h('span', { 'data-text': 'count' })],
    };
    const { page, sockets, storage, errors } = bootedPage(templates, 't');
    const [socket] = sockets;
    let writes = 0;
    const set = storage.set.bind(storage);
    storage.set = (key, value) => (key === 'footlight.page' && writes++, set(key, value));
    const ids = Array.from({ length: 50 }, (_, i) => `r${i}`);
    socket.receive({ t: 'mount', seq: 1, stage: 'frame', template: 'frame', doc: { rows: ids.map((id) => ({ id })) }, events: {} });
    const kept = writes;
    ids.forEach((id, i) => socket.receive({ t: 'mount', seq: 2 + i, stage: `tally-c${i}`, template: 'tally', in: 'frame', at: 'tally', id, doc: { count: i }, events: {} }));
    const items = page.outlet.children[0].querySelectorAll('li');
    assert.equal(items.length, 50);
    assert.equal(items[49].querySelector('span').textContent, '49', 'each in its row');
    ids.forEach((_, i) => socket.receive({ t: 'unmount', seq: 52 + i, stage: `tally-c${i}` }));
    assert.equal(items[0].children.length, 0);
    assert.equal(writes, kept, 'components change nothing the page keeps');
    assert.deepEqual(errors, []);
  });

  test('a page whose last mount is a component is kept once it is all there', () => {
    const templates = {
      frame: (h) => [h('ul', { 'data-list': 'rows' }, h('template', {}, h('li', { 'data-component': 'tally' })))],
      tally: (h) => [h('span', { 'data-text': 'count' })],
    };
    const { sockets, storage } = bootedPage(templates, null);
    const [socket] = sockets;
    // A new session's page: its root, then the root's component, last (as the server sends them).
    socket.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 2 });
    socket.receive({ t: 'mount', seq: 1, stage: 'frame', template: 'frame', doc: { rows: [{ id: 'r1' }] }, events: {} });
    assert.equal(storage.get('footlight.page'), undefined, 'not before the whole page is here');
    socket.receive({ t: 'mount', seq: 2, stage: 'tally-c1', template: 'tally', in: 'frame', at: 'tally', id: 'r1', doc: { count: 1 }, events: {} });
    // Without it, a restart or another node could not rebuild this page: it would start over.
    assert.deepEqual(JSON.parse(storage.get('footlight.page') ?? 'null')?.stages, [{ id: 'frame', template: 'frame' }]);
  });

  test('the back button sends the input still waiting in a debounce first, while its stage is there', () => {
    const browser = joinedPage('tok');
    const { window, page, sockets } = browser;
    const [socket] = sockets;
    socket.receive({ t: 'mount', seq: 2, stage: 'lot-1', template: 'demo', place: 'push', url: '/more', doc: { count: 1, name: '', rows: [] }, events: { name: { debounce: 250 } } });
    const input = page.outlet.children[1].querySelector('input');
    input.value = 'typed';
    input.dispatch('input');
    socket.sent.splice(0);
    window.history.state = null; // back to the root entry
    browser.fire('popstate');
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event').map((m) => [m.name, m.value]), [['name', 'typed'], ['@back', undefined]]);
  });

  test('under Node, runtime.js builds its exports from the other five and does not boot', () => {
    const runtime = load('runtime.js');
    assert.deepEqual(Object.keys(runtime), ['send', 'hook', 'state']);
    assert.deepEqual(JSON.parse(JSON.stringify(runtime.state())), {
      connected: false,
      joined: false,
      token: null,
      lastSeq: 0,
      unacknowledged: 0,
      documents: {},
    });
  });

  test('size: the bundle, every feature with the upload hook, under 14 KB minified and gzipped (the budget of issue 31)', (t) => {
    const zlib = require('node:zlib');
    const { execFileSync } = require('node:child_process');
    // The bundle's files in its order (StaticAssets.runtimeFiles in Swift).
    const order = [...PAGE.map(([file]) => file), 'upload.js'];
    const files = order.map((file) => path.join(folder, file));
    const source = files.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    // Comments and indentation stripped: a rough upper bound that needs no tools.
    const stripped = source
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/\s\/\/\s.*$/gm, '') // a comment after code (" // "; never in the runtime's strings)
      .replace(/^\s+/gm, '')
      .replace(/\n+/g, '\n');
    const roughly = zlib.gzipSync(stripped, { level: 9 }).length;
    assert.ok(roughly < 16 * 1024, `${roughly} bytes gzipped with comments and indentation stripped`);
    // Minified (esbuild, where installed: apt-get install esbuild).
    // Measured as one bundle (the files concatenated, then minified), as scripts/bench runtime does.
    let minified;
    try {
      minified = execFileSync('esbuild', ['--minify', '--log-level=error'], { input: files.map((file) => fs.readFileSync(file, 'utf8')).join(''), encoding: 'utf8' });
    } catch {
      return t.skip('esbuild is not installed');
    }
    // GNU gzip -9, the same measure as the benchmark (zlib's output differs by a few bytes).
    const gzipped = execFileSync('gzip', ['-9', '-c'], { input: minified }).length;
    assert.ok(gzipped <= 14336, `${gzipped} bytes minified and gzipped`);
  });
});
