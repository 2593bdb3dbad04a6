// Tests for lists.js: keyed list plans, carried out on arrays of keys.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load, seeded, shuffled } = require('./support/runtime.js');
const { planList, guardAim } = load('lists.js');

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

/**
 * A page with a keyed list of rows a, b, c (each a row element holding a button, at offsetTop 0,
 * 40, 80), the aim guard installed on a fake window. `acted` lists, for each click that got past
 * the guard, the id of the row its target is in (null: none).
 */
function aimedPage() {
  const listeners = {};
  const acted = [];
  const win = {
    addEventListener: (type, handle, capture) => {
      assert.equal(capture, true, `${type} is listened to in the capture phase`);
      listeners[type] = handle;
    },
  };
  const dispatch = (type, target, detail = 1) => {
    let stopped = false;
    listeners[type]?.({ target, detail, stopImmediatePropagation: () => (stopped = true), preventDefault() {} });
    if (!stopped && type === 'click') acted.push(target.row ?? null);
  };
  const node = (parent, attributes = {}, row = parent?.row) => {
    const made = {
      parentElement: parent,
      row,
      isConnected: true,
      hasAttribute: (name) => name in attributes,
      contains: (other) => {
        for (let el = other; el; el = el.parentElement) if (el === made) return true;
        return false;
      },
      click: () => dispatch('click', made, 0),
      // Only the selector the guard asks: a row, a child of a keyed list.
      closest: (selector) => {
        assert.equal(selector, '[data-list] > *');
        for (let el = made; el; el = el.parentElement) if (el.parentElement?.hasAttribute('data-list')) return el;
        return null;
      },
    };
    return made;
  };
  const body = node(null);
  const list = node(body, { 'data-list': 'lots' });
  const rowNodes = ['a', 'b', 'c'].map((id, i) => Object.assign(node(list, {}, id), { offsetTop: 40 * i }));
  const rows = Object.fromEntries(rowNodes.map((row) => [row.row, node(row)]));
  guardAim(win);
  return {
    body,
    list,
    rows, // each row's button
    acted,
    down: (target) => dispatch('pointerdown', target),
    click: (target, detail) => dispatch('click', target, detail),
    /** The server's update put the rows in this order (bindings.js moved their nodes). */
    reorder: (...ids) => ids.forEach((id, i) => (rowNodes.find((row) => row.row === id).offsetTop = 40 * i)),
  };
}

describe('the aim guard: a click acts on the row pressed, though a live reorder moved it before the click', () => {
  test('moved between pointerdown and click, the click landing on another row or around the list: the row pressed gets it', () => {
    const page = aimedPage();
    page.down(page.rows.a);
    page.reorder('b', 'a', 'c'); // a bid: b is under the pointer now
    page.click(page.rows.b);
    page.down(page.rows.b);
    page.reorder('a', 'b', 'c');
    page.click(page.list); // pressed on one row, released on another: the browser clicks their parent
    assert.deepEqual(page.acted, ['a', 'b']);
  });

  test('no row moved: clicks stay as the browser made them (on the row pressed, dragged off on purpose, elsewhere)', () => {
    const page = aimedPage();
    page.down(page.rows.a);
    page.click(page.rows.a);
    page.down(page.rows.a);
    page.click(page.list); // dragged from a to c on purpose: no row's click
    page.down(page.body);
    page.reorder('c', 'b', 'a');
    page.click(page.body); // pressed outside any list
    assert.deepEqual(page.acted, ['a', null, null]);
  });

  test('keys, a row pressed that has gone, and a click outside its list are left alone', () => {
    const page = aimedPage();
    page.down(page.rows.a);
    page.reorder('b', 'a', 'c');
    page.click(page.rows.b, 0); // Enter on a focused button, after a press that made no click
    page.down(page.rows.a);
    page.rows.a.parentElement.isConnected = false;
    page.reorder('b', 'c', 'a');
    page.click(page.list);
    const other = aimedPage();
    other.down(other.rows.a);
    other.reorder('b', 'a', 'c');
    other.click(other.body);
    assert.deepEqual(page.acted, ['b', null]);
    assert.deepEqual(other.acted, [null]);
  });
});
