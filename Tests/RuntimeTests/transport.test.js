// Tests for transport.js in a fake browser (support/fake-browser.js): closes, resumes the
// server could not honour, rebuilt sessions and the events sent to them again, a server of
// another protocol version.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { fakeBrowser, loadPage, demoTemplate, bootedPage, joinedPage } = require('./support/fake-browser.js');
const K = load('constants.js');

describe('the WebSocket in a page', () => {
  test('a server of another protocol version: nothing applied, the console and the server told, the page asks for a reload', () => {
    for (const version of [2, undefined]) {
      const browser = fakeBrowser({ demo: demoTemplate });
      const { window, document, page, sockets, errors } = browser;
      loadPage(window);
      document.readyState = 'interactive';
      for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
      const [socket] = sockets;
      socket.open();
      socket.sent.splice(0);
      socket.receive({ t: 'joined', v: version, token: 'tok', resumed: false, events: 0, mounts: 1 });
      const text = `footlight: this page's runtime speaks protocol v1, the server v${version ?? '?'}: reload the page to load the server's runtime`;
      assert.deepEqual(errors, [text]);
      assert.deepEqual(socket.sent, [{ t: 'report', stage: '', message: text }], 'the server logs it');
      assert.equal(socket.readyState, 3, 'the socket is closed');
      assert.equal(window.footlight.state().joined, false);
      assert.equal(window.footlight.state().token, null, 'the session is not taken');
      assert.equal(page.banner.textContent, `${K.TEXT_BROKEN} ${K.TEXT_RELOAD}`);
      assert.equal(document.documentElement.classList.contains('footlight-disconnected'), true);
      browser.fire('online');
      browser.clock.advance(60_000);
      assert.equal(sockets.length, 1, 'it never dials again: only a reload brings the server’s runtime');
    }
  });

  test('close 4002 (the app started over): a new session at once, with no token and no waiting events, rebuilt from what the page shows', () => {
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
    assert.deepEqual(second.sent.splice(0), [{ t: 'join', v: 1, path: '/', restore: [{ template: 'demo' }] }], 'a fresh join: no token, no events again; what the page shows, for the new session to rebuild');
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 1 });
    assert.equal(page.banner.textContent, K.TEXT_STARTED_OVER, 'the page says what happened');
    second.receive({ t: 'mount', seq: 1, stage: 's9', template: 'demo', place: 'root', doc: { count: 0, name: '', rows: [] }, events: {} });
    browser.clock.advance(K.SWEEP_MS); // the old session's stage goes
    assert.deepEqual(page.outlet.children.map((stage) => stage.getAttribute('data-stage-id')), ['s9']);
    assert.equal(window.footlight.state().token, 'new');
    assert.equal(window.footlight.state().unacknowledged, 0);
    window.footlight.send('s9', 'increment');
    assert.equal(page.banner.textContent, '', 'until the next action');
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

  function lotPage() {
    const lot = (h) => [h('form', { 'data-on-submit': 'bid' }, h('input', { type: 'text', name: 'amount' })), h('button', { type: 'button', 'data-on-click': 'watch' })];
    const browser = bootedPage({ lot }, 'old');
    // A bid is an action: declared one at a time (a form's submits otherwise queue).
    browser.sockets[0].receive({ t: 'mount', seq: 1, stage: 'lot-1', template: 'lot', doc: {}, events: { bid: { single: true } } });
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
    second.receive({ t: 'mount', seq: 1, stage: 'lot-9', template: 'lot', doc: {}, events: { bid: { single: true } } });
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
});
