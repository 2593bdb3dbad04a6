// Tests for a stage's address (history.js, stages.js, runtime.js) in a fake browser
// (support/fake-browser.js) with a History of its own: the address message moves the address bar
// without a new stage, Back and Forward send `@address`, Back past a stage's first address closes
// it. Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { joinedPage } = require('./support/fake-browser.js');

/** A History for `browser`: entries with their state and URL; moves land as popstate on the clock. */
function withHistory(browser) {
  const { window, clock } = browser;
  const entries = [{ state: null, url: '/' }];
  let at = 0;
  const show = () => {
    const [pathname, search = ''] = entries[at].url.split('?');
    Object.assign(window.location, { pathname, search: search && `?${search}` });
  };
  const history = {
    get state() {
      return entries[at].state;
    },
    pushState(state, _, url) {
      entries.splice(++at, Infinity, { state, url });
      show();
    },
    replaceState(state, _, url) {
      entries[at] = { state, url };
      show();
    },
    go(delta) {
      clock.set(() => {
        at = Math.max(0, Math.min(entries.length - 1, at + delta));
        show();
        browser.fire('popstate');
      }, 0);
    },
    back: () => history.go(-1),
    forward: () => history.go(1),
  };
  window.history = history;
  return { history, urls: () => entries.map((entry) => entry.url), at: () => at };
}

const events = (socket) => socket.sent.filter((m) => m.t === 'event').map((m) => [m.stage, m.name, m.value]);

describe('a stage address', () => {
  test('a root shows its address; an address message adds or replaces an entry, with no new stage; Back and Forward send the address', () => {
    const browser = joinedPage('tok');
    const { page, sockets, clock, storage } = browser;
    const bar = withHistory(browser);
    const [socket] = sockets;
    socket.receive({ t: 'address', seq: 2, stage: 's1', url: '/active' });
    socket.receive({ t: 'address', seq: 3, stage: 's1', url: '/completed' });
    assert.deepEqual(bar.urls(), ['/', '/active', '/completed']);
    assert.equal(page.outlet.children.length, 1, 'the same stage');
    assert.equal(JSON.parse(storage.get('footlight.page')).stages[0].url, '/completed', 'kept for a rebuild');
    socket.receive({ t: 'address', seq: 4, stage: 's1', url: '/completed?page=2', replace: true });
    assert.deepEqual(bar.urls(), ['/', '/active', '/completed?page=2'], 'replaced');
    socket.sent.splice(0);
    bar.history.back();
    clock.advance(1);
    bar.history.back();
    clock.advance(1);
    bar.history.forward();
    clock.advance(1);
    assert.deepEqual(events(socket), [
      ['s1', '@address', '/active'],
      ['s1', '@address', '/'],
      ['s1', '@address', '/active'],
    ]);
    // The server agrees: its address message for what shows adds nothing.
    socket.receive({ t: 'address', seq: 5, stage: 's1', url: '/active' });
    assert.deepEqual(bar.urls(), ['/', '/active', '/completed?page=2']);
    assert.equal(bar.at(), 1);
  });

  test('a pushed stage: its addresses stack on its own entry, Back past the first closes it', () => {
    const browser = joinedPage('tok');
    const { sockets, clock } = browser;
    const bar = withHistory(browser);
    const [socket] = sockets;
    socket.receive({ t: 'mount', seq: 2, stage: 'lots-1', template: 'demo', place: 'push', url: '/lots', doc: { count: 1, name: '', rows: [] }, events: {} });
    socket.receive({ t: 'address', seq: 3, stage: 'lots-1', url: '/lots?page=2' });
    // The root's address does not move History while a stage is pushed over it.
    socket.receive({ t: 'address', seq: 4, stage: 's1', url: '/elsewhere' });
    assert.deepEqual(bar.urls(), ['/', '/lots', '/lots?page=2']);
    socket.sent.splice(0);
    bar.history.back();
    clock.advance(1);
    bar.history.back();
    clock.advance(1);
    // Back on the root's entry: the root, which moved on meanwhile, goes back to that entry's address.
    assert.deepEqual(events(socket), [
      ['lots-1', '@address', '/lots'],
      ['lots-1', '@back', undefined],
      ['s1', '@address', '/'],
    ]);
    // Popped with two addresses: History goes back to the root's entry, however many it takes.
    socket.receive({ t: 'unmount', seq: 5, stage: 'lots-1' });
    clock.advance(1);
    clock.advance(1);
    assert.equal(bar.at(), 0);
  });
});

describe('events during a rebuild', () => {
  const templates = {
    frame: (h) => [h('div', { 'data-component': 'form' })],
    form: (h) => [h('input', { type: 'text', 'data-value': 'name', 'data-on-input': 'name' })],
    demo: (h) => [h('input', { type: 'text', 'data-value': 'name', 'data-on-input': 'name' })],
  };

  test('what is typed in a stage the rebuild has not named yet waits for its mount, then goes to it; a stage not rebuilt goes at once', () => {
    const { bootedPage } = require('./support/fake-browser.js');
    const browser = bootedPage(templates, 'old');
    const { page, sockets, errors } = browser;
    const [first] = sockets;
    first.receive({ t: 'mount', seq: 1, stage: 'frame', template: 'frame', doc: {}, events: {} });
    first.receive({ t: 'mount', seq: 2, stage: 'form-c1', template: 'form', in: 'frame', at: 'form', doc: { name: '' }, events: {} });
    first.receive({ t: 'mount', seq: 3, stage: 'demo-1', template: 'demo', place: 'push', url: '/demo', doc: { name: '' }, events: {} });
    const input = page.outlet.children[0].querySelector('input');
    const gone = page.outlet.children[1].querySelector('input');
    first.readyState = 3;
    first.onclose({ code: 1006 });
    browser.clock.advance(10_000);
    const second = sockets[1];
    second.open();
    // The server rebuilt the frame (its component follows in the snapshot), not the pushed stage.
    second.receive({ t: 'joined', v: 1, token: 'new', resumed: false, events: 0, mounts: 2, rebuilt: ['frame-1', null] });
    second.sent.splice(0);
    input.value = 'Ada';
    input.dispatch('input');
    gone.value = 'lost';
    gone.dispatch('input');
    assert.deepEqual(events(second), [], 'nothing to a stage id no server has');
    second.receive({ t: 'mount', seq: 1, stage: 'frame-1', template: 'frame', doc: {}, events: {} });
    assert.equal(input.value, 'Ada', 'the frame\'s mount keeps what waits');
    assert.equal(page.outlet.children.length, 2, 'the stage not rebuilt stays until the page is whole');
    second.receive({ t: 'mount', seq: 2, stage: 'form-c2', template: 'form', in: 'frame-1', at: 'form', doc: { name: '' }, events: {} });
    assert.deepEqual(events(second), [['form-c2', 'name', 'Ada']], 'to the rebuilt component, once');
    assert.equal(input.value, 'Ada');
    assert.equal(page.outlet.children.length, 1, 'the whole page is here: the stage not rebuilt is gone, no second later');
    assert.deepEqual(errors, []);
  });
});
