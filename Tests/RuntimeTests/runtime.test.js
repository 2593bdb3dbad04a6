// Tests for runtime.js and the wiring of the runtime's files: each file's global and factory
// inputs, the page booting in a fake browser (support/fake-browser.js), mounting, sending events
// and reports, and what a page keeps of an event's value.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { PAGE, wrapperInputs, fakeBrowser, loadPage, demoTemplate, bootedPage } = require('./support/fake-browser.js');
const K = load('constants.js');

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
      FootlightLists: ['planList', 'guardAim'],
      FootlightBindings: ['parseSlot', 'parseBinding', 'readPath', 'truthy', 'init', 'bindTree', 'render', 'write', 'release', 'unlock', 'rowId'],
      FootlightEvents: ['gate', 'controlValue', 'formValue', 'init', 'listen', 'flush', 'notSent', 'consumed', 'isHeld'],
      FootlightSession: ['backoff', 'Session'],
      FootlightStorage: ['open', 'saveToken', 'saveEvents', 'savePage', 'language'],
      FootlightBanner: ['show'],
      FootlightKeeping: ['restore', 'keep', 'shown', 'keptValues', 'renamed', 'forget'],
      FootlightTransport: ['connect', 'sendEvent', 'sendReport', 'connection'],
      FootlightHistory: ['init', 'settle', 'push', 'remove', 'address', 'top', 'topPushed', 'hasModal'],
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
    // back-forward cache drops again; online reconnects at once. (pointerdown and click: lists.js's
    // aim guard, from the start.)
    assert.deepEqual(browser.windowListeners, ['pointerdown', 'click', 'pagehide', 'popstate', 'pagehide', 'pageshow', 'online']);
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

    // Booting and running wrote no global but the runtime's files' own, and nothing into any file's exports.
    assert.deepEqual(Object.getOwnPropertyNames(window), [...globals, ...PAGE.map(([, global]) => global)]);
    exportsUnchanged();
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

  test('under Node, runtime.js builds its exports from the other files and does not boot', () => {
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
});
