// Tests for history.js in a fake browser (support/fake-browser.js): the back button.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { joinedPage } = require('./support/fake-browser.js');
const K = load('constants.js');
const { Session } = load('session.js');

describe('History in a page', () => {
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
});
