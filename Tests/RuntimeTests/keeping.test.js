// Tests for keeping.js in a fake browser (support/fake-browser.js): what the page keeps for a
// rebuild, and when.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { bootedPage } = require('./support/fake-browser.js');
const { Session } = load('session.js');

describe('what a page keeps', () => {
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
});
