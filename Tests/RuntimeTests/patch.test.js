// Tests for the browser runtime's pure patch module (Sources/FootlightServer/Runtime/patch.js).
// Run with `node --test Tests/RuntimeTests/` (or scripts/test-runtime); Node 20+, no packages.
//
// Environment:
//   FOOTLIGHT_CONFORMANCE_DIR      where the shared conformance suites live
//                                  (default: ../shared/conformance beside the repository)
//   FOOTLIGHT_REQUIRE_CONFORMANCE  1 = a missing suite fails instead of skipping
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const repository = path.resolve(__dirname, '..', '..');
const runtime = path.join(repository, 'Sources', 'FootlightServer', 'Runtime');
const { PatchError, applyPatch, changedPaths } = require(path.join(runtime, 'patch.js'));

/** JSON text with object keys sorted at every level: one canonical form to compare. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Freezes a value and everything in it, so any write by applyPatch throws (the module is strict). */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** Applies `ops` to a frozen `document`, checking the input is unchanged whatever happens. */
function applyFrozen(document, ops) {
  const before = canonical(document);
  deepFreeze(document);
  deepFreeze(ops);
  try {
    return applyPatch(document, ops);
  } finally {
    assert.equal(canonical(document), before, 'applyPatch changed its input document');
  }
}

const readJSON = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

// ---------------------------------------------------------------------------------------------
// RFC 6902 conformance: the json-patch-tests records, as the Swift suite reads them.

describe('JSON Patch conformance suite', () => {
  const directory = process.env.FOOTLIGHT_CONFORMANCE_DIR
    ? path.resolve(process.env.FOOTLIGHT_CONFORMANCE_DIR)
    : path.resolve(repository, '..', 'shared', 'conformance');
  const required = process.env.FOOTLIGHT_REQUIRE_CONFORMANCE === '1';
  let enabled = 0;

  for (const file of ['tests.json', 'spec_tests.json']) {
    const location = path.join(directory, 'json-patch', file);
    if (!fs.existsSync(location)) {
      const message = `conformance suite missing at ${location}; set FOOTLIGHT_CONFORMANCE_DIR to run it`;
      if (required) test(`${file} is present (FOOTLIGHT_REQUIRE_CONFORMANCE=1)`, () => assert.fail(message));
      else test(`${file}`, { skip: message }, () => {});
      continue;
    }
    describe(file, () => {
      readJSON(location).forEach((record, index) => {
        if (!('doc' in record && 'patch' in record) || record.disabled === true) return;
        enabled += 1;
        test(`#${index}: ${record.comment ?? ''}`, () => {
          if ('error' in record) {
            assert.throws(() => applyFrozen(record.doc, record.patch), PatchError, `expected: ${record.error}`);
          } else {
            const result = applyFrozen(record.doc, record.patch);
            if ('expected' in record) assert.equal(canonical(result), canonical(record.expected));
          }
        });
      });
    });
  }

  test('the suite files hold at least 100 enabled records', (t) => {
    if (enabled === 0 && !required) return t.skip('conformance suite missing');
    // 92 enabled records in tests.json and 16 in spec_tests.json, as the Swift suite counts them.
    assert.ok(enabled >= 100, `only ${enabled} enabled records`);
  });
});

// ---------------------------------------------------------------------------------------------
// Shared fixtures: the same folders FootlightJSONTests/SharedPatchFixtureTests.swift applies.

describe('shared patch fixtures (Tests/Fixtures/patches)', () => {
  const directory = path.join(repository, 'Tests', 'Fixtures', 'patches');
  const cases = fs.existsSync(directory)
    ? fs.readdirSync(directory, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((e) => e.name)
    : [];

  test('the fixture folder holds at least 12 cases', () => {
    assert.ok(cases.length >= 12, `only ${cases.length} cases in ${directory}`);
  });

  for (const name of cases.sort()) {
    test(name, () => {
      const folder = path.join(directory, name);
      const before = readJSON(path.join(folder, 'before.json'));
      const ops = readJSON(path.join(folder, 'patch.json'));
      const errorFile = path.join(folder, 'error.txt');
      if (fs.existsSync(errorFile)) {
        const kind = fs.readFileSync(errorFile, 'utf8').trim();
        assert.throws(() => applyFrozen(before, ops), (error) => error instanceof PatchError && error.kind === kind);
      } else {
        const result = applyFrozen(before, ops);
        assert.equal(canonical(result), canonical(readJSON(path.join(folder, 'after.json'))));
      }
    });
  }
});

describe('applyPatch', () => {
  const documentText = '{"items":[{"id":"a","n":1},{"id":"b","n":2}],"title":"Lots","meta":{"page":{"size":20}}}';
  const fresh = () => JSON.parse(documentText);

  test('all six operations', () => {
    const result = applyFrozen(fresh(), [
      { op: 'add', path: '/items/1', value: { id: 'c', n: 3 } },
      { op: 'remove', path: '/items/0' },
      { op: 'replace', path: '/title', value: 'More lots' },
      { op: 'move', from: '/items/1', path: '/items/0' },
      { op: 'copy', from: '/meta/page', path: '/page' },
      { op: 'test', path: '/items', value: [{ n: 2, id: 'b' }, { id: 'c', n: 3 }] },
    ]);
    assert.deepEqual(result, {
      items: [{ id: 'b', n: 2 }, { id: 'c', n: 3 }],
      title: 'More lots',
      meta: { page: { size: 20 } },
      page: { size: 20 },
    });
  });

  test('is atomic: a failing patch throws and leaves the input untouched', () => {
    const document = fresh();
    const ops = [
      { op: 'replace', path: '/title', value: 'Changed' },
      { op: 'add', path: '/items/-', value: 1 },
      { op: 'remove', path: '/items/7' },
    ];
    assert.throws(() => applyFrozen(document, ops), PatchError);
    assert.equal(canonical(document), canonical(fresh()));
  });

  test('never mutates its input on success (even unfrozen)', () => {
    const document = fresh();
    const result = applyPatch(document, [
      { op: 'add', path: '/items/0/extra', value: true },
      { op: 'remove', path: '/title' },
    ]);
    assert.equal(canonical(document), canonical(fresh()));
    assert.equal(result.items[0].extra, true);
    assert.equal('title' in result, false);
  });

  test('shares untouched subtrees and copies only the containers on the path', () => {
    const document = fresh();
    const result = applyFrozen(document, [{ op: 'replace', path: '/items/1/n', value: 5 }]);
    assert.notEqual(result, document);
    assert.notEqual(result.items, document.items);
    assert.notEqual(result.items[1], document.items[1]);
    assert.equal(result.items[0], document.items[0], 'sibling row was copied');
    assert.equal(result.meta, document.meta, 'sibling slot was copied');
    assert.equal(result.items[1].n, 5);
  });

  test('many operations on one container, and a copy never aliases its source', () => {
    const ops = [];
    for (let i = 0; i < 50; i++) ops.push({ op: 'add', path: '/items/-', value: { id: `x${i}`, n: i } });
    ops.push({ op: 'replace', path: '/meta/page/size', value: 50 });
    ops.push({ op: 'copy', from: '/meta', path: '/saved' });
    ops.push({ op: 'replace', path: '/meta/page/size', value: 10 });
    ops.push({ op: 'add', path: '/saved/page/extra', value: 1 });
    const result = applyFrozen(fresh(), ops);
    assert.equal(result.items.length, 52);
    assert.deepEqual(result.meta, { page: { size: 10 } });
    assert.deepEqual(result.saved, { page: { size: 50, extra: 1 } });
  });

  test('move onto itself is a no-op and move into its own child is refused', () => {
    assert.deepEqual(applyFrozen(fresh(), [{ op: 'move', from: '/meta', path: '/meta' }]), fresh());
    assert.throws(
      () => applyFrozen(fresh(), [{ op: 'move', from: '/meta', path: '/meta/page/x' }]),
      {
        kind: 'invalidTarget',
        message: 'patch operation 0 (move at "/meta/page/x"): cannot move a value into one of its own children',
      },
    );
    // A sibling whose name merely starts with the same characters is not a child.
    const result = applyFrozen({ a: 1, ab: { } }, [{ op: 'move', from: '/a', path: '/ab/a' }]);
    assert.deepEqual(result, { ab: { a: 1 } });
  });

  test('array indexes: decimal without leading zeros, "-" only for add', () => {
    assert.throws(() => applyFrozen([1, 2], [{ op: 'replace', path: '/01', value: 0 }]), { kind: 'pathNotFound' });
    assert.throws(() => applyFrozen([1, 2], [{ op: 'remove', path: '/-' }]), { kind: 'pathNotFound' });
    assert.throws(() => applyFrozen([1, 2], [{ op: 'test', path: '/+1', value: 2 }]), { kind: 'pathNotFound' });
    assert.throws(() => applyFrozen([1, 2], [{ op: 'add', path: '/3', value: 0 }]), { kind: 'invalidTarget' });
    const appended = applyFrozen([1, 2], [{ op: 'add', path: '/2', value: 3 }, { op: 'add', path: '/-', value: 4 }]);
    assert.deepEqual(appended, [1, 2, 3, 4]);
    assert.deepEqual(applyFrozen({ '01': 'x' }, [{ op: 'replace', path: '/01', value: 'y' }]), { '01': 'y' });
  });

  test('test compares objects regardless of key order and numbers by value', () => {
    const doc = { a: { x: 1, y: [1, { z: null }] } };
    applyFrozen(doc, [{ op: 'test', path: '/a', value: JSON.parse('{"y":[1.0,{"z":null}],"x":1e0}') }]);
    for (const value of [{ x: 1 }, { x: 1, y: [{ z: null }, 1] }, { x: '1', y: [1, { z: null }] }, [], null]) {
      assert.throws(() => applyFrozen(doc, [{ op: 'test', path: '/a', value }]), { kind: 'testFailed' });
    }
    assert.throws(() => applyFrozen({ a: [] }, [{ op: 'test', path: '/a', value: {} }]), { kind: 'testFailed' });
    assert.throws(() => applyFrozen({ a: null }, [{ op: 'test', path: '/a', value: {} }]), { kind: 'testFailed' });
    assert.throws(() => applyFrozen({ a: 0 }, [{ op: 'test', path: '/a', value: false }]), { kind: 'testFailed' });
  });

  test('root: replace and add swap the document, remove is refused', () => {
    assert.deepEqual(applyFrozen(fresh(), [{ op: 'replace', path: '', value: [1] }]), [1]);
    assert.equal(applyFrozen(fresh(), [{ op: 'add', path: '', value: 'text' }]), 'text');
    assert.throws(() => applyFrozen(fresh(), [{ op: 'remove', path: '' }]), { kind: 'invalidTarget', path: '' });
  });
});

describe('PatchError', () => {
  const document = JSON.parse('{"items":[{"id":"a","n":1},{"id":"b","n":2},{"id":"c","n":3}],"title":"Lots"}');

  test('names the operation index, name and path', () => {
    let error = null;
    try {
      applyFrozen(document, [
        { op: 'test', path: '/title', value: 'Lots' },
        { op: 'add', path: '/x', value: 1 },
        { op: 'remove', path: '/items/7' },
      ]);
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof PatchError && error instanceof Error);
    assert.equal(error.message, 'patch operation 2 (remove at "/items/7"): no element "7" in an array of 3');
    assert.equal(error.opIndex, 2);
    assert.equal(error.op, 'remove');
    assert.equal(error.path, '/items/7');
    assert.equal(error.kind, 'pathNotFound');
  });

  // The same cases as JSONPatchApplyTests.errorKinds in Swift, plus the exact messages.
  const cases = [
    ['[{"op":"test","path":"/title","value":"x"}]', 'testFailed', 0, '/title',
      'patch operation 0 (test at "/title"): the value differs from the one the test expects'],
    ['[{"op":"add","path":"/title/x","value":1}]', 'invalidTarget', 0, '/title/x',
      'patch operation 0 (add at "/title/x"): the parent is a string, not an object or array'],
    ['[{"op":"add","path":"/items/9","value":1}]', 'invalidTarget', 0, '/items/9',
      'patch operation 0 (add at "/items/9"): "9" is not an index from 0 to 3 or "-"'],
    ['[{"op":"add","path":"/missing/x","value":1}]', 'pathNotFound', 0, '/missing/x',
      'patch operation 0 (add at "/missing/x"): no member "missing"'],
    ['[{"op":"replace","path":"/nope","value":1}]', 'pathNotFound', 0, '/nope',
      'patch operation 0 (replace at "/nope"): no member "nope"'],
    ['[{"op":"remove","path":"/title/a/b"}]', 'pathNotFound', 0, '/title/a/b',
      'patch operation 0 (remove at "/title/a/b"): "a" is inside a string, which has no children'],
    ['[{"op":"move","from":"/items","path":"/items/0"}]', 'invalidTarget', 0, '/items/0', null],
    ['[{"op":"copy","from":"/nope","path":"/x"}]', 'pathNotFound', 0, '/nope',
      'patch operation 0 (copy at "/nope"): no value at "from"'],
    ['[{"op":"remove","path":""}]', 'invalidTarget', 0, '',
      'patch operation 0 (remove at ""): the whole document cannot be removed'],
    ['[{"op":"test","path":"/title","value":"Lots"},{"op":"jump","path":"/a"}]', 'malformed', 1, '/a',
      'patch operation 1 (jump at "/a"): unknown operation "jump"'],
    ['[{"op":"add","path":"/a"}]', 'malformed', 0, '/a', 'patch operation 0 (add at "/a"): missing "value"'],
    ['[{"op":"add","path":"a","value":1}]', 'invalidPointer', 0, null,
      'patch operation 0 (add): invalid JSON pointer "a": a non-empty pointer must start with "/"'],
    ['[{"path":"/a"}]', 'malformed', 0, null, 'patch operation 0: missing "op"'],
    ['[{"op":1,"path":"/a"}]', 'malformed', 0, null, 'patch operation 0: "op" must be a string, not number'],
    ['[{"op":"move","path":"/a"}]', 'malformed', 0, null, 'patch operation 0 (move): missing "from"'],
    ['[17]', 'malformed', 0, null, 'patch operation 0: an operation must be an object, not number'],
    ['{"op":"add"}', 'malformed', 0, null, 'patch operation 0: a patch must be an array, not object'],
    // Every operation is read before any is applied, as in Swift: the malformed one is reported.
    ['[{"op":"remove","path":"/nope"},{"op":"add","path":"/a"}]', 'malformed', 1, '/a', null],
  ];
  for (const [text, kind, opIndex, errorPath, message] of cases) {
    test(`${kind}: ${text}`, () => {
      assert.throws(() => applyFrozen(document, JSON.parse(text)), (error) => {
        assert.ok(error instanceof PatchError);
        assert.equal(error.kind, kind);
        assert.equal(error.opIndex, opIndex);
        assert.equal(error.path, errorPath);
        if (message) assert.equal(error.message, message);
        assert.ok(error.message.startsWith(`patch operation ${opIndex}`));
        return true;
      });
    });
  }
});

describe('module loading', () => {
  test('as a classic browser script after pointer.js it defines the FootlightPatch global', () => {
    const vm = require('node:vm');
    const window = vm.createContext({});
    window.self = window;
    for (const file of ['pointer.js', 'patch.js']) vm.runInContext(fs.readFileSync(path.join(runtime, file), 'utf8'), window);
    const api = window.FootlightPatch;
    const names = ['PatchError', 'applyPatch', 'changedPaths'];
    assert.deepEqual(Object.keys(api).sort(), names);
    assert.equal(JSON.stringify(api.applyPatch([1], [{ op: 'add', path: '/-', value: 2 }])), '[1,2]');
  });
});

describe('changedPaths', () => {
  test('names the first token of every written pointer, "" for the whole document', () => {
    assert.deepEqual(
      changedPaths([
        { op: 'replace', path: '/title', value: 'x' },
        { op: 'add', path: '/items/3/title', value: 'y' },
        { op: 'remove', path: '/items/0' },
        { op: 'move', from: '/drafts/0', path: '/items/0' },
        { op: 'copy', from: '/templates/0', path: '/a~1b/0' },
        { op: 'test', path: '/untouched', value: 1 },
      ]),
      new Set(['title', 'items', 'drafts', 'a/b']),
    );
    assert.deepEqual(changedPaths([{ op: 'replace', path: '', value: {} }]), new Set(['']));
    assert.deepEqual(changedPaths([]), new Set());
  });
});

describe('prototype pollution', () => {
  test('"__proto__" in a path is a plain member name', () => {
    const document = JSON.parse('{"__proto__":{"a":1}}');
    const result = applyFrozen(document, [{ op: 'add', path: '/__proto__/x', value: 'polluted' }]);
    assert.equal({}.x, undefined);
    assert.equal(Object.prototype.x, undefined);
    assert.ok(Object.prototype.hasOwnProperty.call(result, '__proto__'));
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(canonical(result), '{"__proto__":{"a":1,"x":"polluted"}}');
  });

  test('adding a "__proto__" member defines it without changing the prototype', () => {
    const result = applyFrozen({}, [
      { op: 'add', path: '/__proto__', value: { polluted: true } },
      { op: 'add', path: '/__proto__/more', value: 1 },
      { op: 'copy', from: '/__proto__', path: '/copy' },
      { op: 'replace', path: '/__proto__', value: { replaced: true } },
    ]);
    assert.equal({}.polluted, undefined);
    assert.equal(result.polluted, undefined);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(canonical(result), '{"__proto__":{"replaced":true},"copy":{"more":1,"polluted":true}}');
  });

  test('inherited names such as "constructor" and "toString" are not members', () => {
    const cases = [
      { op: 'add', path: '/constructor/prototype/x', value: 1 },
      { op: 'replace', path: '/constructor', value: 1 },
      { op: 'remove', path: '/toString' },
      { op: 'test', path: '/constructor', value: {} },
      { op: 'move', from: '/__proto__', path: '/x' },
      { op: 'copy', from: '/hasOwnProperty', path: '/x' },
      { op: 'add', path: '/__proto__/x', value: 1 },
    ];
    for (const op of cases) assert.throws(() => applyFrozen({}, [op]), { kind: 'pathNotFound' }, JSON.stringify(op));
    assert.equal(Object.prototype.x, undefined);
    const result = applyFrozen({}, [{ op: 'add', path: '/constructor', value: { prototype: { x: 1 } } }]);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal({}.constructor, Object);
    assert.equal(canonical(result), '{"constructor":{"prototype":{"x":1}}}');
  });
});
