/*
 * Footlight browser runtime: keyed list plans (Bindings.md, "Lists"), pure and tested under Node:
 * how to turn a list's rows, by id, into the rows of a new document with the fewest DOM moves, so
 * that rows keep their nodes (and focus) across moves. bindings.js carries the plans out.
 * And the aim guard: a click acts on the row it was pressed on, though a live reorder moved another
 * row under the pointer (guardAim, installed on the page's window).
 * Needs constants.js only; in the page its exports are the global FootlightLists.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'));
  else (root.FootlightLists = factory(root.FootlightConstants)).guardAim(root);
})(this, (K) => {
  'use strict';

  // Positions of a longest increasing subsequence of `indices`, skipping negatives (new rows).
  function longestRun(indices) {
    const tails = [];
    const previous = [];
    indices.forEach((index, i) => {
      if (index < 0) return;
      let low = 0;
      let high = tails.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (indices[tails[middle]] < index) low = middle + 1;
        else high = middle;
      }
      previous[i] = low ? tails[low - 1] : -1;
      tails[low] = i;
    });
    const run = new Set();
    for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]) run.add(i);
    return run;
  }

  /**
   * Plans turning a keyed list's children from `oldKeys` into `newKeys` with the fewest moves: the
   * rows in a longest run already in order stay; every other row is moved or inserted.
   * Carry out `remove` first, then each step in order: put row `key` just before row `before`
   * (null: at the end); `fresh` marks a row to create.
   * @returns {{remove: *[], steps: [key: *, before: *, fresh: boolean][]}}
   * @throws {Error} when `newKeys` repeats a key.
   */
  function planList(oldKeys, newKeys) {
    const wanted = new Set(newKeys);
    if (wanted.size !== newKeys.length) {
      const twice = newKeys.find((key, i) => newKeys.indexOf(key) !== i);
      throw new Error(`two rows have the ${K.ID} ${JSON.stringify(twice)}`);
    }
    const oldIndex = new Map(oldKeys.map((key, i) => [key, i]));
    const indices = newKeys.map((key) => oldIndex.get(key) ?? -1);
    const stay = longestRun(indices);
    const steps = [];
    for (let i = newKeys.length - 1; i >= 0; i--) {
      if (!stay.has(i)) steps.push([newKeys[i], newKeys[i + 1] ?? null, indices[i] < 0]);
    }
    return { remove: oldKeys.filter((key) => !wanted.has(key)), steps };
  }

  /**
   * Keeps a pointer's click on the row of a keyed list it was pressed on when a live reorder moves
   * that row between pointerdown and click: the browser would give the click to whatever is under
   * the pointer at pointerup (another row) or to the element around both (the list: no row at
   * all). Such a click, on the list or in it, is stopped and given to the element pressed. A pointer
   * moved off its row on purpose is not redirected: the row did not move.
   * @param win the window, whose listeners (capture) see the events first.
   */
  function guardAim(win) {
    const rowOf = (el) => el?.closest?.(`[${K.BIND.list}] > *`); // the innermost row around el
    let pressed; // [the element pressed, its row, where the row was]
    win.addEventListener(
      'pointerdown',
      (event) => {
        const row = rowOf(event.target);
        pressed = [event.target, row, row?.offsetTop];
      },
      true,
    );
    win.addEventListener(
      'click',
      (event) => {
        const [el, row, top] = pressed || [];
        pressed = null;
        // Keyboard clicks, clicks on the row pressed or outside its list (on another row of it, or on
        // the list itself, the parent of both), and clicks where the row did not move stay as they are.
        if (!event.detail || !row?.isConnected || row.offsetTop === top || row.contains(event.target)) return;
        if (!row.parentElement.contains(event.target)) return;
        event.stopImmediatePropagation();
        event.preventDefault();
        el.click();
      },
      true,
    );
  }

  return { planList, guardAim };
});
