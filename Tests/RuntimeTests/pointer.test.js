// Tests for pointer.js: RFC 6901 JSON Pointers as the patch module reads and writes them.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { parsePointer, formatPointer } = load('pointer.js');

describe('JSON Pointer', () => {
  test('unescapes ~1 to / and ~0 to ~, in that order', () => {
    assert.deepEqual(parsePointer(''), []);
    assert.deepEqual(parsePointer('/'), ['']);
    assert.deepEqual(parsePointer('/items/0/title'), ['items', '0', 'title']);
    assert.deepEqual(parsePointer('/a~1b/m~0n'), ['a/b', 'm~n']);
    assert.deepEqual(parsePointer('/~01'), ['~1']);
    assert.deepEqual(parsePointer('/a//b/'), ['a', '', 'b', '']);
  });

  test('rejects a missing leading slash and bad escapes', () => {
    assert.throws(() => parsePointer('items'), /must start with "\/"/);
    assert.throws(() => parsePointer('/a~2b'), /"~" must be followed by "0" or "1"/);
    assert.throws(() => parsePointer('/a~~0'), /"~" must be followed by "0" or "1"/);
    assert.throws(() => parsePointer('/a~'), /"~" at the end of a token/);
  });

  test('formatPointer escapes and round-trips', () => {
    assert.equal(formatPointer([]), '');
    assert.equal(formatPointer(['a/b', 'm~n', 0]), '/a~1b/m~0n/0');
    for (const text of ['', '/', '/a~1b/m~0n', '/~01/~10', '/x//y']) {
      assert.equal(formatPointer(parsePointer(text)), text);
    }
  });
});
