// Tests for bindings.js: binding attributes (comparisons included), paths into records, truthiness, and comparisons in a page.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { parseSlot, parseBinding, readPath, truthy } = load('bindings.js');
const { bootedPage } = require('./support/fake-browser.js');

describe('binding attributes', () => {
  test('a slot, a dotted path and a negation', () => {
    assert.deepEqual(parseSlot('count'), { not: false, bool: false, path: ['count'] });
    assert.deepEqual(parseSlot(' seller.name '), { not: false, bool: false, path: ['seller', 'name'] });
    assert.deepEqual(parseSlot('!canSubmit'), { not: true, bool: false, path: ['canSubmit'] });
    assert.deepEqual(parseSlot('rows.0.title'), { not: false, bool: false, path: ['rows', '0', 'title'] });
    assert.deepEqual(parseSlot('!!error'), { not: false, bool: true, path: ['error'] }, 'the truthiness as a boolean');
  });

  test('bad slots are refused with the text in the message', () => {
    for (const text of ['', '  ', 'a..b', '.a', 'a.', 'a b', '!!!a', '! !a', 'a:b', 'a,b', '!', '!!']) {
      assert.throws(() => parseSlot(text), (error) => error.message.includes(`"${text}"`), text);
    }
  });

  test('single-slot kinds give one binding', () => {
    for (const kind of ['text', 'show', 'hide', 'value', 'list']) {
      assert.deepEqual(parseBinding(kind, 'a.b'), [{ kind, not: false, bool: false, path: ['a', 'b'] }]);
    }
    assert.deepEqual(parseBinding('show', '!busy'), [{ kind: 'show', not: true, bool: false, path: ['busy'] }]);
  });

  test('attr and class take name:slot pairs', () => {
    assert.deepEqual(parseBinding('attr', 'href:url, title:hint'), [
      { kind: 'attr', name: 'href', not: false, bool: false, path: ['url'] },
      { kind: 'attr', name: 'title', not: false, bool: false, path: ['hint'] },
    ]);
    assert.deepEqual(parseBinding('attr', 'disabled:!canSubmit'), [{ kind: 'attr', name: 'disabled', not: true, bool: false, path: ['canSubmit'] }]);
    assert.deepEqual(parseBinding('class', 'active:isActive,error:form.hasError'), [
      { kind: 'class', name: 'active', not: false, bool: false, path: ['isActive'] },
      { kind: 'class', name: 'error', not: false, bool: false, path: ['form', 'hasError'] },
    ]);
    assert.deepEqual(parseBinding('attr', 'aria-invalid:!!emailError'), [
      { kind: 'attr', name: 'aria-invalid', not: false, bool: true, path: ['emailError'] },
    ]);
    assert.throws(() => parseBinding('value', '!!a'), /cannot bind a value/);
  });

  test('a slot compared with a literal: == and != with text, numbers, booleans and null', () => {
    const compare = (text) => parseSlot(text);
    assert.deepEqual(compare("filter=='active'"), { not: false, bool: false, path: ['filter'], eq: true, lit: 'active' });
    assert.deepEqual(compare(' filter != "all" '), { not: false, bool: false, path: ['filter'], eq: false, lit: 'all' });
    assert.deepEqual(compare('page.count==-2.5'), { not: false, bool: false, path: ['page', 'count'], eq: true, lit: -2.5 });
    assert.deepEqual(compare('done==true'), { not: false, bool: false, path: ['done'], eq: true, lit: true });
    assert.deepEqual(compare('done!=false'), { not: false, bool: false, path: ['done'], eq: false, lit: false });
    assert.deepEqual(compare('error!=null'), { not: false, bool: false, path: ['error'], eq: false, lit: null });
    assert.deepEqual(compare(`quote=="it's"`).lit, "it's", 'no escapes: the other quote');
    assert.deepEqual(compare("mode==''").lit, '');
    // data-class and data-attr pairs: a comma inside a quoted literal belongs to it.
    assert.deepEqual(parseBinding('class', "selected:filter=='a,b', done:!open"), [
      { kind: 'class', name: 'selected', not: false, bool: false, path: ['filter'], eq: true, lit: 'a,b' },
      { kind: 'class', name: 'done', not: true, bool: false, path: ['open'] },
    ]);
    assert.deepEqual(parseBinding('show', "filter!='all'"), [{ kind: 'show', not: false, bool: false, path: ['filter'], eq: false, lit: 'all' }]);
    assert.deepEqual(parseBinding('attr', 'aria-current:tab==2')[0].lit, 2);
  });

  test('a malformed comparison is an error naming the attribute', () => {
    const cases = [
      ['class', 'on:filter==active', `data-class="on:filter==active": "filter==active" is not a slot name, a dotted path or "slot==literal"`],
      ['show', "filter='all'", `data-show="filter='all'": "filter='all'" is not a slot name, a dotted path or "slot==literal"`],
      ['show', "filter==='all'", `data-show="filter==='all'": "filter==='all'" is not a slot name, a dotted path or "slot==literal"`],
      ['hide', "filter=='all", `data-hide="filter=='all": "filter=='all" is not a slot name, a dotted path or "slot==literal"`],
      ['hide', '==1', 'data-hide="==1": "==1" is not a slot name, a dotted path or "slot==literal"'],
      ['show', "!filter=='all'", `data-show="!filter=='all'": "!filter=='all'" is not a slot name, a dotted path or "slot==literal"`],
      ['class', 'on:a..b==1', 'data-class="on:a..b==1": "a..b==1" is not a slot name, a dotted path or "slot==literal"'],
      ['value', 'n==1', 'data-value="n==1": "!" or a comparison cannot bind a value or a list'],
      ['list', 'n==1', 'data-list="n==1": "!" or a comparison cannot bind a value or a list'],
    ];
    for (const [kind, text, message] of cases) assert.throws(() => parseBinding(kind, text), { message });
  });

  test('errors name the attribute and the part that is wrong', () => {
    const cases = [
      ['attr', 'href', 'data-attr="href": "href" is not "name:slot"'],
      ['attr', 'href:url,', 'data-attr="href:url,": "" is not "name:slot"'],
      ['attr', ':url', 'data-attr=":url": ":url" is not "name:slot"'],
      ['class', 'a b:c', 'data-class="a b:c": "a b:c" is not "name:slot"'],
      ['attr', 'href:', 'data-attr="href:": "" is not a slot name, a dotted path or "slot==literal"'],
      ['text', 'a b', 'data-text="a b": "a b" is not a slot name, a dotted path or "slot==literal"'],
      ['value', '!email', 'data-value="!email": "!" or a comparison cannot bind a value or a list'],
      ['list', '!rows', 'data-list="!rows": "!" or a comparison cannot bind a value or a list'],
    ];
    for (const [kind, text, message] of cases) assert.throws(() => parseBinding(kind, text), { message });
  });

  test('readPath follows members and array indices, null through null, undefined when missing', () => {
    const document = { seller: { name: 'Ada', tags: ['x', 'y'] }, empty: null, zero: 0 };
    assert.equal(readPath(document, ['seller', 'name']), 'Ada');
    assert.equal(readPath(document, ['seller', 'tags', '1']), 'y');
    assert.equal(readPath(document, ['empty']), null);
    assert.equal(readPath(document, ['zero']), 0);
    assert.equal(readPath(document, ['missing']), undefined);
    assert.equal(readPath(document, ['empty', 'x']), null, 'a path through a null record is null');
    assert.equal(readPath(document, ['missing', 'x']), undefined);
    assert.equal(readPath(document, ['seller', 'name', 'length']), undefined);
    assert.equal(readPath(document, ['toString']), undefined, 'inherited members are not slots');
    assert.equal(readPath(document, []), document);
  });

  test('truthiness: an empty array is false', () => {
    for (const value of [false, null, 0, '', []]) assert.equal(truthy(value), false, JSON.stringify(value));
    for (const value of [true, 1, 'x', [0], {}]) assert.equal(truthy(value), true, JSON.stringify(value));
  });
});

describe('comparisons in a page', () => {
  test('data-class, data-show and data-hide follow a slot compared with a literal; a bad one is reported', () => {
    const filters = (h) => [
      h('a', { href: '/', 'data-class': "selected:filter=='all'" }),
      h('a', { href: '/active', 'data-class': "selected:filter=='active', busy:count!=0" }),
      h('p', { 'data-show': "filter!='all'" }),
      h('p', { 'data-hide': 'count==0' }),
      h('p', { 'data-show': 'filter==all' }),
    ];
    const { page, sockets, errors } = bootedPage({ filters }, 'tok');
    const [socket] = sockets;
    socket.receive({ t: 'mount', seq: 1, stage: 's1', template: 'filters', place: 'root', doc: { filter: 'all', count: 0 }, events: {} });
    const stage = page.outlet.children[0];
    const [all, active] = stage.querySelectorAll('a');
    const [shown, hidden, bad] = stage.querySelectorAll('p');
    const state = () => [all.classList.contains('selected'), active.classList.contains('selected'), active.classList.contains('busy'), shown.hidden, hidden.hidden];
    assert.deepEqual(state(), [true, false, false, true, true]);
    socket.receive({ t: 'patch', seq: 2, stage: 's1', ops: [{ op: 'replace', path: '/filter', value: 'active' }, { op: 'replace', path: '/count', value: 2 }] });
    assert.deepEqual(state(), [false, true, true, false, false]);
    socket.receive({ t: 'patch', seq: 3, stage: 's1', ops: [{ op: 'replace', path: '/filter', value: 'all' }] });
    assert.deepEqual(state(), [true, false, true, true, false]);
    assert.equal(bad.hidden, false, 'a malformed binding binds nothing');
    assert.deepEqual(errors.splice(0), ['footlight: stage "s1": data-show="filter==all": "filter==all" is not a slot name, a dotted path or "slot==literal"']);
  });
});
