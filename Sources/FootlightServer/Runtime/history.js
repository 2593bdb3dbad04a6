/*
 * Footlight browser runtime: the navigation stack's History entries. Each stage pushed, or shown
 * as a modal, is a layer with a History entry of its own (its address when it has one); the back
 * button closes the top layers through `@back` (the handler `init` is given sends it), and when
 * the server closes a layer, History goes back to what shows. The runtime's own moves (go(-n))
 * are counted until their popstate lands, and entries to add wait for them. A stage's address
 * (`address`) is shown in an entry of the stage's own depth: pushed or replaced while the stage is
 * on top; Back and Forward between the entries of one depth tell its stage where it is now.
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
  let onBack; // called for each layer the back button closes, and with the address they go to
  let root; // the root stage that showed an address last: its entries are those of depth 0

  const historyDepth = () => history.state?.[K.HISTORY_DEPTH] | 0;
  const here = () => location.pathname + location.search;

  /**
   * Listens for the back and forward buttons; `back(st)` tells the server of a layer they close,
   * `back(st, url)` of another address of the stage on top they go to.
   */
  function init(back) {
    onBack = back;
    addEventListener('popstate', onPopState);
  }

  /**
   * Shows `url`, the address of stage `st` (a root or a layer), in the address bar when nothing is
   * stacked above it: in a new entry, or in the current one when `replace`.
   */
  function address(st, url, replace) {
    const depth = layers.indexOf(st) + 1;
    if (!depth) root = st;
    if (depth === layers.length) addEntry(depth, url, !replace);
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
  // A deep link's first push finds its own address on the root entry: the root gets its own
  // address, or "/". After a reload the entries up to the current one exist already: one below it
  // is left as it is (rewriting it, as the page once did, left a dead entry per reload), the
  // current one rewritten; `again`: a new entry of the same depth (another address of its stage).
  function addEntry(depth, url, again) {
    if (trips.length) return void waiting.push(() => addEntry(depth, url, again));
    const current = historyDepth();
    if (depth && !current && url === here()) history.replaceState({}, '', root?.url || '/');
    const state = { [K.HISTORY_DEPTH]: depth };
    if (depth > current || (again && depth === current && url !== here())) history.pushState(state, '', url || location.href);
    else if (depth === current) history.replaceState(state, '', url || location.href);
  }

  // The runtime's own moves have landed. History may still be deeper than the stack (a layer had
  // entries of several addresses): settle again. Else the entries waiting are added, and the one
  // landed on shows the address of the stage on top (a new session's stage may have another).
  function landed() {
    settle();
    if (trips.length) return;
    waiting.splice(0).forEach((add) => add());
    const st = layers.at(-1) || root;
    if (st?.url && st.url !== here()) history.replaceState(history.state, '', st.url);
  }

  function onPopState() {
    if (trips.length) return void (trips.shift(), trips.length || landed());
    const depth = historyDepth();
    // Forward into an entry whose stage the server has popped: go back where the page is.
    if (depth > layers.length) return settle();
    for (let i = layers.length - 1; i >= depth; i--) {
      const st = layers[i];
      if (st.backed) continue;
      st.backed = true;
      onBack(st);
    }
    // Another address of the stage at this depth (one that has addresses): it goes there (back
    // from a stage stacked over it too, when it moved on meanwhile: it goes back to that entry's).
    const st = depth ? layers[depth - 1] : root;
    if (st?.url && !st.backed && st.url !== here()) onBack(st, (st.url = here()));
  }

  return { init, settle, push, remove, address, top, topPushed, hasModal };
});
