/*
 * Footlight browser runtime: what the page keeps for a server that lost its session (Protocol.md,
 * "Rebuilding a session"): each stage's place and template, and the last value sent for each
 * event it declared recoverable (or the one the document gave that event's control since, which
 * bindings.js writes into the stage's `kept`). transport.js sends it with every resume; it is
 * stored across a reload too (storage.js), and the values a stage kept before the reload come back
 * to it when it mounts again. Needs constants.js and storage.js; in the page its exports are the
 * global FootlightKeeping.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./storage.js'));
  else root.FootlightKeeping = factory(root.FootlightConstants, root.FootlightStorage);
})(this, (K, storage) => {
  'use strict';

  let page = []; // what the page shows ([{id, template, place, url, values}]), as last kept
  let earlier = []; // what it showed before this load (a reload, a copied tab), with the ids of the last rebuild

  const RANK = { [K.ROOT]: 0, [K.PUSH]: 1, [K.MODAL]: 2 };

  /** What the page showed before this load (`stages`, as storage.open found it). */
  function restore(stages) {
    earlier = page = stages;
  }

  /**
   * Keeps what the page shows, from its stage records, in the server's page order (roots, the
   * stack, modals). A component is not named: its parent's scene places it again.
   */
  function keep(records) {
    // A stage the back button is closing is left out: a rebuild would only bring it back.
    const shown = [...records].filter((st) => st.el && !st.stale && !st.backed && st.place !== K.IN).sort((a, b) => RANK[a.place] - RANK[b.place]);
    page = shown.map((st) => {
      const stage = { id: st.id, [K.TEMPLATE]: st.template };
      if (st.place !== K.ROOT) stage[K.PLACE] = st.place;
      if (st.url) stage[K.URL] = st.url;
      if (Object.keys(st.kept).length) stage[K.VALUES] = st.kept;
      return stage;
    });
    storage.savePage(page);
  }

  /** What the page shows, as last kept: the restore of a join. */
  const shown = () => page;

  /** The values kept for stage `id` of `template` before this page was loaded (a reload), or {}. */
  function keptValues(id, template) {
    const stage = earlier.find((kept) => kept.id === id && kept[K.TEMPLATE] === template);
    return { ...stage?.[K.VALUES] };
  }

  /** A rebuilt session: the stages kept earlier are named by their new ids (`moved`: old → new). */
  function renamed(moved) {
    earlier = page.map((stage) => ({ ...stage, id: moved.get(stage.id) ?? stage.id }));
  }

  /** A new session that was not rebuilt: nothing kept earlier is the new session's. */
  function forget() {
    earlier = [];
  }

  return { restore, keep, shown, keptValues, renamed, forget };
});
