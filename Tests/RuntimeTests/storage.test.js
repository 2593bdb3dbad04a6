// Tests for storage.js in a fake browser (support/fake-browser.js): a duplicated tab, a reload,
// and what another address kept.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { fakeBrowser, loadPage, demoTemplate } = require('./support/fake-browser.js');

describe('sessionStorage in a page', () => {
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
});
