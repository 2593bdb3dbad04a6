// Tests for first content (Protocol.md, "First content"): a page whose first response carries its
// session's `joined` and mounts shows them before its socket opens, then joins resuming that
// session; input typed before the socket opens goes once joined; a reload resumes its own session,
// and a duplicated tab rebuilds one of its own from the page it copied.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { fakeBrowser, loadPage, demoTemplate } = require('./support/fake-browser.js');

const joined = { t: 'joined', v: 1, token: 'first', resumed: false, events: 0, max: 65536, mounts: 1 };
const mount = { t: 'mount', seq: 1, stage: 's1', template: 'demo', doc: { count: 7, name: 'Ada', rows: [] }, events: {} };

/** A page whose first response carried `messages` (as the server writes them), booted; `stored`: a token this tab kept. */
function firstPage(messages, stored) {
  const browser = fakeBrowser({ demo: demoTemplate });
  const element = { text: JSON.stringify(messages) };
  const byId = browser.document.getElementById;
  browser.document.getElementById = (id) => (id === 'footlight-first' ? element : byId(id));
  // A reload: the tab kept its token and the address it left (else it would be a duplicated tab).
  if (stored) browser.storage.set('footlight.token', stored).set('footlight.url', '/');
  loadPage(browser.window);
  browser.document.readyState = 'interactive';
  for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
  return browser;
}

describe('first content', () => {
  test('the page shows the mounts before its socket opens, then joins resuming that session', () => {
    const browser = firstPage([joined, mount]);
    const [socket] = browser.sockets;
    assert.equal(socket.readyState, 0, 'the socket is still opening');
    const [stage] = browser.page.outlet.children;
    assert.equal(stage.getAttribute('data-stage-id'), 's1');
    assert.equal(stage.querySelector('[data-text]').textContent, '7');
    assert.equal(browser.storage.get('footlight.token'), 'first');

    socket.open();
    const [join] = socket.sent.splice(0);
    assert.deepEqual(
      { t: join.t, token: join.token, seq: join.seq, path: join.path },
      { t: 'join', token: 'first', seq: 1, path: '/' },
      'a resume after the mounts the page shows',
    );
    assert.deepEqual(join.restore.map(({ template }) => template), ['demo'], 'what it shows, for a server that lost it');
    socket.receive({ t: 'joined', v: 1, token: 'first', resumed: true, events: 0, max: 65536 });
    assert.equal(browser.page.outlet.children[0], stage, 'the same element: nothing mounted again');
    socket.receive({ t: 'patch', seq: 2, stage: 's1', ops: [{ op: 'replace', path: '/count', value: 8 }] });
    assert.equal(stage.querySelector('[data-text]').textContent, '8', 'live');
  });

  test('input typed before the socket opens, or before it has joined, is sent once joined, in order', () => {
    const browser = firstPage([joined, mount]);
    const state = () => browser.window.footlight.state();
    assert.equal(state().joined, false, 'not joined before the socket has');
    const [socket] = browser.sockets;
    const [stage] = browser.page.outlet.children;
    const button = stage.querySelector('[data-on-click]');
    button.dispatch('click');
    assert.deepEqual(socket.sent, [], 'nothing goes before the socket is open');
    socket.open();
    button.dispatch('click');
    assert.deepEqual(socket.sent.splice(0).map((message) => message.t), ['join'], 'nor before the join is answered');
    socket.receive({ t: 'joined', v: 1, token: 'first', resumed: true, events: 0, max: 65536 });
    assert.equal(state().joined, true);
    assert.deepEqual(socket.sent.splice(0), [
      { t: 'event', n: 1, stage: 's1', name: 'increment' },
      { t: 'event', n: 2, stage: 's1', name: 'increment' },
    ]);
  });

  test('a tab that kept a token (a reload) resumes its own session and ignores the first content', () => {
    const browser = firstPage([joined, mount], 'kept');
    assert.equal(browser.page.outlet.children.length, 0, 'nothing shown from the first response');
    const [socket] = browser.sockets;
    socket.open();
    const [join] = socket.sent.splice(0);
    assert.equal(join.token, 'kept');
  });

  test('a duplicated tab (a token copied, no address left) rebuilds from the copied page, not from the first content', () => {
    const browser = fakeBrowser({ demo: demoTemplate });
    const byId = browser.document.getElementById;
    browser.document.getElementById = (id) => (id === 'footlight-first' ? { text: JSON.stringify([joined, mount]) } : byId(id));
    const shown = [{ id: 's9', template: 'demo', values: { name: 'typed in the original' } }];
    browser.storage.set('footlight.token', 'original').set('footlight.page', JSON.stringify({ at: '/', stages: shown }));
    loadPage(browser.window);
    browser.document.readyState = 'interactive';
    for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
    assert.equal(browser.page.outlet.children.length, 0, 'nothing shown from the first response');
    browser.sockets[0].open();
    const [join] = browser.sockets[0].sent;
    assert.equal(join.token, undefined, 'a session of its own');
    assert.deepEqual(join.restore, [{ template: 'demo', values: { name: 'typed in the original' } }]);
  });

  test('a page without first content boots as before', () => {
    const browser = fakeBrowser({ demo: demoTemplate });
    loadPage(browser.window);
    browser.document.readyState = 'interactive';
    for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
    assert.equal(browser.page.outlet.children.length, 0);
    browser.sockets[0].open();
    assert.deepEqual(browser.sockets[0].sent, [{ t: 'join', v: 1, path: '/' }]);
  });
});
