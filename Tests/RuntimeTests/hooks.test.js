// Tests for hooks.js in a fake browser (support/fake-browser.js).
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { bootedPage } = require('./support/fake-browser.js');

describe('hooks in a page', () => {
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
    // From inside a list row, with the row's id as the bindings' events have it (the row's id wins).
    const rowHooks = [];
    window.footlight.hook('row', { mounted: (h) => rowHooks.push(h), destroyed: record('destroyed') });
    socket.receive({ t: 'patch', seq: 7, stage: 's1', ops: [{ op: 'add', path: '/rows/-', value: { id: 7, title: 'C' } }] });
    const [rowHook] = rowHooks;
    socket.sent.splice(0);
    rowHook.send('pick', { at: 3, id: 'mine' });
    rowHook.send('pick', 'x');
    rowHook.send('pick', [1]);
    rowHook.send('pick', null);
    rowHook.send('pick');
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event').map((m) => m.value), [
      { at: 3, id: 7 }, { id: 7, value: 'x' }, { id: 7, value: [1] }, { id: 7, value: null }, { id: 7 },
    ]);
    window.footlight.hook('chart', { updated: () => { throw new Error('no canvas context'); } });
    socket.receive({ t: 'patch', seq: 8, stage: 's1', ops: [{ op: 'add', path: '/series/-', value: 4 }] });
    assert.deepEqual(errors.splice(0), ['footlight: stage "s1": hook "chart" failed in updated: no canvas context']);

    // The stage goes: its hooks are destroyed, and a late send sends nothing.
    window.footlight.hook('chart', { destroyed: record('destroyed') });
    socket.receive({ t: 'unmount', seq: 9, stage: 's1' });
    assert.deepEqual(calls.splice(0).map((c) => c.slice(0, 2)).sort(), [['destroyed', 'chart'], ['destroyed', 'row'], ['destroyed', 'row']]);
    socket.sent.splice(0);
    assert.equal(chart.send('pick', 3), null);
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event'), []);
  });
});
