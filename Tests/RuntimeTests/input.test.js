// Tests for what the visitor types and presses (events.js, and the value bindings of bindings.js)
// in a fake browser (support/fake-browser.js): a form's submits queue, key filters, input flushed
// before any other event, the slots an event sets, the kept value following the document, and a
// new document never overwriting the focused control. And Bindings.md lists every bindable event.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { load } = require('./support/runtime.js');
const { bootedPage } = require('./support/fake-browser.js');
const K = load('constants.js');

/**
 * A page showing stage `s1` of a template with a form (submit `add`) holding a field `title`
 * (bound to slot `draft`, input `draft`, keydown `key` for Escape) and a field `secret` (slot
 * `secret`, input `secret`), and `options` as the stage's event options. Returns the page, its parts and helpers.
 */
function entriesPage(options = {}, doc = { draft: '', secret: '' }) {
  const entries = (h) => [
    h(
      'form',
      { 'data-on-submit': 'add' },
      h('input', { type: 'text', name: 'title', 'data-value': 'draft', 'data-on-input': 'draft', 'data-on-keydown': 'key' }),
      h('input', { type: 'password', 'data-value': 'secret', 'data-on-input': 'secret' }),
    ),
  ];
  const browser = bootedPage({ entries }, 'tok');
  const [socket] = browser.sockets;
  const events = { key: { keys: ['Escape'] }, ...options };
  socket.receive({ t: 'mount', seq: 1, stage: 's1', template: 'entries', place: 'root', doc, events });
  const [stage] = browser.page.outlet.children;
  const form = stage.querySelector('form');
  const [title, secret] = stage.querySelectorAll('input');
  title.form = secret.form = form; // the fake has no form owner
  const type = (field, text) => {
    field.value = text;
    field.dispatch('input');
  };
  const enter = () => title.dispatch('keydown', { key: 'Enter' });
  const sent = () => socket.sent.splice(0).filter((m) => m.t === 'event').map((m) => [m.n, m.name, m.value]);
  let seq = 1;
  const patch = (ops, ack) => socket.receive({ t: 'patch', seq: ++seq, stage: 's1', ops, ...(ack && { ack }) });
  const mount = (doc) => socket.receive({ t: 'mount', seq: ++seq, stage: 's1', template: 'entries', place: 'root', doc, events });
  return { ...browser, socket, form, title, secret, type, enter, sent, patch, mount };
}

describe('what the visitor types and presses', () => {
  test("a form's submits queue: each goes once, in order, after the form's input; past the bound one is refused at the form", () => {
    const { title, type, enter, sent, form, patch } = entriesPage();
    for (const text of ['one', 'two', 'three']) {
      type(title, text);
      enter();
    }
    assert.deepEqual(sent(), [
      [1, 'draft', 'one'],
      [2, 'add', { title: 'one' }],
      [3, 'draft', 'two'],
      [4, 'add', { title: 'two' }],
      [5, 'draft', 'three'],
      [6, 'add', { title: 'three' }],
    ]);
    // Offline, say: 16 submits of the form wait for the server; the 17th is refused, visibly.
    for (let i = 4; i <= K.MAX_SUBMITS; i++) enter();
    assert.equal(sent().length, K.MAX_SUBMITS - 3);
    assert.equal(form.classList.contains(K.C_REFUSED), false);
    enter();
    assert.deepEqual(sent(), [], 'not sent');
    assert.equal(form.classList.contains(K.C_REFUSED), true, 'refused at the form');
    // Once the server has taken some, the next submit goes, and the form says so no more.
    patch([], 6);
    enter();
    assert.deepEqual(sent().map(([, name]) => name), ['add']);
    assert.equal(form.classList.contains(K.C_REFUSED), false);
  });

  test('a submit declared one at a time counts once while it waits', () => {
    const { enter, sent, patch } = entriesPage({ add: { single: true } });
    enter();
    enter();
    assert.deepEqual(sent(), [[1, 'add', { title: '' }]]);
    patch([], 1);
    enter();
    assert.deepEqual(sent(), [[2, 'add', { title: '' }]]);
  });

  test('a key filter sends only its keys, with the key and the field’s value; input waiting in a debounce goes first', () => {
    const { title, type, sent, clock } = entriesPage({ draft: { debounce: 300 }, key: { keys: ['Enter', 'Escape'] } });
    type(title, 'ab');
    title.dispatch('keydown', { key: 'b' });
    assert.deepEqual(sent(), [], 'another key: nothing sent, nothing flushed');
    title.dispatch('keydown', { key: 'Escape' });
    assert.deepEqual(sent(), [
      [1, 'draft', 'ab'],
      [2, 'key', { key: 'Escape', value: 'ab' }],
    ]);
    clock.advance(1000);
    assert.deepEqual(sent(), [], 'the debounce sent it once');
  });

  test('an event that sets a slot shows it at once and holds it until the server has the event; later keys go into the emptied field', () => {
    const { title, type, enter, sent, patch } = entriesPage({ add: { set: { draft: '' } } });
    type(title, 'Key by key');
    enter();
    assert.equal(title.value, '', 'emptied the moment Enter was pressed');
    // The server echoes the typed title (event 1) before it has the submit (event 2): not shown.
    patch([{ op: 'replace', path: '/draft', value: 'Key by key' }], 1);
    assert.equal(title.value, '');
    type(title, 'A');
    patch([{ op: 'replace', path: '/draft', value: '' }], 2);
    assert.equal(title.value, 'A', 'what is typed after Enter stays');
    patch([{ op: 'replace', path: '/draft', value: 'A' }], 3);
    assert.deepEqual(sent(), [
      [1, 'draft', 'Key by key'],
      [2, 'add', { title: 'Key by key' }],
      [3, 'draft', 'A'],
    ]);
    assert.equal(title.value, 'A');
  });

  test('the value kept for a rebuild follows the document: a field the server cleared is not brought back', () => {
    const { title, type, storage, patch } = entriesPage({ draft: { keep: true } });
    const kept = () => JSON.parse(storage.get(K.STORE_PAGE)).stages[0].values;
    type(title, 'first');
    assert.deepEqual(kept(), { draft: 'first' });
    patch([{ op: 'replace', path: '/draft', value: 'first' }], 1);
    patch([{ op: 'replace', path: '/draft', value: '' }]);
    assert.equal(title.value, '');
    assert.deepEqual(kept(), { draft: '' });
  });

  test('a new document never overwrites the focused field being typed in: it keeps its text and sends it again', () => {
    const { secret, type, sent, patch, mount, document } = entriesPage();
    secret.focus();
    type(secret, 'pass');
    patch([{ op: 'replace', path: '/secret', value: 'pass' }], 1);
    sent();
    // The stage mounted again (a rebuilt session's document knows no password).
    mount({ draft: '', secret: '' });
    assert.equal(secret.value, 'pass');
    assert.deepEqual(sent(), [[2, 'secret', 'pass']]);
    // Once the server has it, a field not focused takes the document's value.
    patch([{ op: 'replace', path: '/secret', value: 'pass' }], 2);
    document.activeElement = null;
    mount({ draft: '', secret: 'x' });
    assert.equal(secret.value, 'x');
  });

  test('double click, focus, blur and key up bind; blur carries the value, typed or not; commit on blur sends nothing untyped', () => {
    const row = (h) => [
      h('ul', { 'data-list': 'rows' }, h('template', {}, h('li', { 'data-on-dblclick': 'edit' }, h('input', { type: 'text', 'data-value': 'title', 'data-on-blur': 'save', 'data-on-focus': 'editing', 'data-on-keyup': 'up' })))),
      h('input', { type: 'text', 'data-on-input': 'note' }),
    ];
    const { sockets, page } = bootedPage({ row }, 'tok');
    const [socket] = sockets;
    const events = { note: { commit: 'blur' }, up: { keys: ['Escape'] } };
    socket.receive({ t: 'mount', seq: 1, stage: 's1', template: 'row', place: 'root', doc: { rows: [{ id: 'r1', title: 'Milk' }] }, events });
    const sent = () => socket.sent.splice(0).filter((m) => m.t === 'event').map((m) => [m.name, m.value]);
    const [stage] = page.outlet.children;
    const li = stage.querySelector('li');
    const [title, note] = stage.querySelectorAll('input');
    li.dispatch('dblclick');
    title.dispatch('focus');
    title.dispatch('keyup', { key: 'a' });
    title.dispatch('keyup', { key: 'Escape' });
    title.dispatch('blur');
    note.dispatch('blur');
    note.dispatch('focusout');
    assert.deepEqual(sent(), [
      ['edit', { id: 'r1' }],
      ['editing', { id: 'r1' }],
      ['up', { id: 'r1', key: 'Escape', value: 'Milk' }],
      ['save', { id: 'r1', value: 'Milk' }],
    ]);
  });

  test('Bindings.md lists every event that binds, and no other', () => {
    const text = fs.readFileSync(path.join(__dirname, '../../Sources/Footlight/Footlight.docc/Bindings.md'), 'utf8');
    const listed = [...text.matchAll(/^\| `(data-on-[a-z]+)="name"` \|/gm)].map((match) => match[1]);
    assert.deepEqual(listed.sort(), Object.values(K.ON).sort());
  });
});
