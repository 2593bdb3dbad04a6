/*
 * Footlight browser runtime: the navigation stack's History entries. Each stage pushed, or shown
 * as a modal, is a layer with a History entry of its own (its address when it has one); the back
 * button closes the top layers through `@back` (the handler `init` is given sends it), and when
 * the server closes a layer, History goes back to what shows. The runtime's own moves (go(-n))
 * are counted until their popstate lands, and entries to add wait for them.
 * Needs constants.js only; in the page its exports are the global FootlightHistory.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'));
  else root.FootlightHistory = factory(root.FootlightConstants);
})(this, (K) => {
  'use strict';

  const layers = []; // the stages with a History entry (pushed and modal), bottom first
  const trips = []; // the runtime's own History moves (go(-n)) whose popstate has not come yet
  const waiting = []; // History entries to add once those have landed
  let onBack; // called for each layer the back button closes

  const historyDepth = () => history.state?.[K.HISTORY_DEPTH] | 0;

  /** Listens for the back and forward buttons; `back(st)` tells the server of a layer they close. */
  function init(back) {
    onBack = back;
    addEventListener('popstate', onPopState);
  }

  /**
   * Moves History back to where the stack is (entries ahead are added by `push` alone), from where
   * it will be once the runtime's own moves have landed.
   */
  function settle() {
    const delta = trips.reduce((rest, trip) => rest - trip, layers.length - historyDepth());
    if (delta >= 0) return;
    trips.push(delta);
    history.go(delta);
  }

  /** Puts stage `st` on top of the stack, with a History entry at its address `url`. */
  function push(st, url) {
    layers.push(st);
    addEntry(layers.length, url);
  }

  /** Takes stage `st` off the stack and History back to what shows; false when it was not on it. */
  function remove(st) {
    const index = layers.indexOf(st);
    if (index < 0) return false;
    layers.splice(index, 1);
    settle();
    return true;
  }

  /** The top of the stack (undefined when empty), and the top pushed stage. */
  const top = () => layers.at(-1);
  const topPushed = () => layers.findLast((st) => st.place === K.PUSH);
  /** Whether a modal shows. */
  const hasModal = () => layers.some((st) => st.place === K.MODAL);

  // A move of the runtime's still on its way would land after a pushState made now, so that waits.
  // A deep link's first push finds its own address on the root entry: the root gets "/".
  // After a reload the entries up to the current one exist already: one below it is left as it
  // is (rewriting it, as the page once did, left a dead entry per reload), the current one rewritten.
  function addEntry(depth, url) {
    if (trips.length) return void waiting.push(() => addEntry(depth, url));
    const current = historyDepth();
    if (!current && url === location.pathname) history.replaceState({}, '', '/');
    if (depth > current) history.pushState({ [K.HISTORY_DEPTH]: depth }, '', url || location.href);
    else if (depth === current) history.replaceState({ [K.HISTORY_DEPTH]: depth }, '', url || location.href);
  }

  function onPopState() {
    if (trips.length) return void (trips.shift(), trips.length || waiting.splice(0).forEach((add) => add()));
    // Forward into an entry whose stage the server has popped: go back where the page is.
    if (historyDepth() > layers.length) return settle();
    for (let i = layers.length - 1; i >= historyDepth(); i--) {
      const st = layers[i];
      if (st.backed) continue;
      st.backed = true;
      onBack(st);
    }
  }

  return { init, settle, push, remove, top, topPushed, hasModal };
});
