// Tests for bindings.js's pure part: binding attributes, paths into records, truthiness.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { parseSlot, parseBinding, readPath, truthy } = load('bindings.js');

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
    assert.throws(() => parseBinding('value', '!!a'), /cannot negate a value/);
  });

  test('errors name the attribute and the part that is wrong', () => {
    const cases = [
      ['attr', 'href', 'data-attr="href": "href" is not "name:slot"'],
      ['attr', 'href:url,', 'data-attr="href:url,": "" is not "name:slot"'],
      ['attr', ':url', 'data-attr=":url": ":url" is not "name:slot"'],
      ['class', 'a b:c', 'data-class="a b:c": "a b:c" is not "name:slot"'],
      ['attr', 'href:', 'data-attr="href:": "" is not a slot name or a dotted path'],
      ['text', 'a b', 'data-text="a b": "a b" is not a slot name or a dotted path'],
      ['value', '!email', 'data-value="!email": "!" cannot negate a value or a list'],
      ['list', '!rows', 'data-list="!rows": "!" cannot negate a value or a list'],
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
