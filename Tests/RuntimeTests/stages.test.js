// Tests for stages.js in a fake browser (support/fake-browser.js): components, focus in modals,
// templates that include templates.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { bootedPage } = require('./support/fake-browser.js');

describe('stages in a page', () => {
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
});
