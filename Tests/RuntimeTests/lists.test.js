// Tests for lists.js: keyed list plans, carried out on arrays of keys.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load, seeded, shuffled } = require('./support/runtime.js');
const { planList } = load('lists.js');

/** Carries out a plan on an array of keys as the DOM code does on nodes; counts the moves. */
function carryOut(oldKeys, plan) {
  const nodes = oldKeys.filter((key) => !plan.remove.includes(key));
  let moves = 0;
  let inserts = 0;
  for (const [key, before, fresh] of plan.steps) {
    const at = nodes.indexOf(key);
    assert.equal(at < 0, fresh, `row ${key} is ${fresh ? 'new' : 'old'}`);
    if (at >= 0) nodes.splice(at, 1);
    const next = before === null ? nodes.length : nodes.indexOf(before);
    assert.ok(next >= 0, `row ${before} is placed before it is used as an anchor`);
    nodes.splice(next, 0, key);
    fresh ? inserts++ : moves++;
  }
  return { nodes, moves, inserts };
}

describe('keyed list plans', () => {
  const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

  test('the same order needs no steps', () => {
    assert.deepEqual(planList([1, 2, 3], [1, 2, 3]), { remove: [], steps: [] });
    assert.deepEqual(planList([], []), { remove: [], steps: [] });
  });

  test('reversing 1000 rows moves 999 and gives the reversed order', () => {
    const old = range(1000);
    const reversed = old.slice().reverse();
    const plan = planList(old, reversed);
    assert.deepEqual(plan.remove, []);
    const { nodes, moves, inserts } = carryOut(old, plan);
    assert.deepEqual(nodes, reversed);
    assert.equal(moves, 999);
    assert.equal(inserts, 0);
  });

  test('moving one row to the front is one move', () => {
    const plan = planList(['a', 'b', 'c', 'd'], ['d', 'a', 'b', 'c']);
    assert.deepEqual(plan.steps, [['d', 'a', false]]);
    assert.deepEqual(carryOut(['a', 'b', 'c', 'd'], plan).nodes, ['d', 'a', 'b', 'c']);
  });

  test('swapping two rows is one move', () => {
    const plan = planList([1, 2, 3, 4, 5], [1, 4, 3, 2, 5]);
    const { nodes, moves } = carryOut([1, 2, 3, 4, 5], plan);
    assert.deepEqual(nodes, [1, 4, 3, 2, 5]);
    assert.equal(moves, 2, 'two of 2, 3, 4 leave the longest run (which keeps one)');
  });

  test('inserts, removals and moves together', () => {
    const plan = planList(['a', 'b', 'c', 'd', 'e'], ['e', 'x', 'b', 'y', 'a']);
    assert.deepEqual(plan.remove, ['c', 'd']);
    const { nodes, inserts } = carryOut(['a', 'b', 'c', 'd', 'e'], plan);
    assert.deepEqual(nodes, ['e', 'x', 'b', 'y', 'a']);
    assert.equal(inserts, 2);
  });

  test('from empty every row is inserted in order; to empty every row is removed', () => {
    const plan = planList([], [1, 2, 3]);
    assert.deepEqual(plan.steps, [
      [3, null, true],
      [2, 3, true],
      [1, 2, true],
    ]);
    assert.deepEqual(planList([1, 2, 3], []), { remove: [1, 2, 3], steps: [] });
  });

  test('string and number ids are different keys', () => {
    const plan = planList([1, '1'], ['1', 1]);
    assert.deepEqual(carryOut([1, '1'], plan).nodes, ['1', 1]);
  });

  test('random edits: the plan gives the new order with no more moves than needed', () => {
    const random = seeded(42);
    for (let round = 0; round < 300; round++) {
      const size = Math.floor(random() * 60);
      const old = shuffled(range(size), random);
      const kept = old.filter(() => random() < 0.8);
      const added = range(Math.floor(random() * 10), 1000 + round * 100);
      const next = shuffled(kept.concat(added), random);
      const plan = planList(old, next);
      const { nodes, moves, inserts } = carryOut(old, plan);
      assert.deepEqual(nodes, next);
      assert.equal(inserts, added.length);
      // The rows that stay form a longest increasing run, so moves = kept - that run's length.
      const positions = kept.length ? next.filter((key) => old.includes(key)).map((key) => old.indexOf(key)) : [];
      const run = [];
      for (const p of positions) {
        let i = run.findIndex((tail) => tail >= p);
        if (i < 0) i = run.length;
        run[i] = p;
      }
      assert.equal(moves, kept.length - run.length);
    }
  });

  test('a repeated id is refused', () => {
    assert.throws(() => planList([1, 2], [1, 2, 1]), { message: 'two rows have the id 1' });
    assert.throws(() => planList([], ['a', 'a']), { message: 'two rows have the id "a"' });
  });
});
