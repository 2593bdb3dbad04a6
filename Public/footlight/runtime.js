/*
 * Footlight browser runtime: stages (Bindings.md, Protocol.md). Loaded last; boots the page.
 * Mounts each stage's template at the root, pushed on the navigation stack (with a History
 * entry, popped by the back button through `@back`) or as a modal; applies patches; opens
 * URLs; reports binding errors. window.footlight = {send, state} is for debugging and tests.
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./patch.js'));
  else Object.assign(root.Footlight, factory(root.Footlight, root.FootlightPatch));
})(this, function (F, P) {
  'use strict';

  const { K } = F;
  const stages = new Map(); // instance id → {id, template, place, el, doc, opts, binds, …}
  const layers = []; // the stages with a History entry (pushed and modal), bottom first
  let skipPops = 0; // popstates caused by the runtime's own history.back()
  const waiting = []; // History entries to add once those have landed
  let sweeper;
  let outlet;
  let modals;

  const historyDepth = () => history.state?.[K.HISTORY_DEPTH] | 0;

  /** Logs a binding error with its stage and sends it to the server (once per stage and message). */
  function report(st, message) {
    if (st.reported.has(message)) return;
    st.reported.add(message);
    console.error(`footlight: stage "${st.id}": ${message}`);
    F.sendReport(st.id, message);
  }

  function mount(message) {
    const id = message[K.STAGE];
    const template = message[K.TEMPLATE];
    let st = stages.get(id);
    // A stage mounted again (after a snapshot or a new session) keeps its element, focus and all.
    if (!st || st.template !== template) {
      if (st) unmount(id);
      stages.set(id, (st = { id, template, place: message[K.PLACE] || K.ROOT, reported: new Set() }));
      const source = document.querySelector(`template[${K.A_TEMPLATE}="${CSS.escape(template)}"]`);
      if (source) {
        const el = (st.el = document.createElement('section'));
        el.className = K.C_STAGE;
        el.setAttribute(K.A_STAGE_ID, id);
        el.tabIndex = -1;
        el.append(source.content.cloneNode(true));
        st.binds = F.bindTree(el, st, '');
        F.listen(st);
        place(st, message[K.URL]);
      } else report(st, `no <template ${K.A_TEMPLATE}="${template}"> in the page`);
    }
    Object.assign(st, { doc: message[K.DOC], opts: message[K.EVENTS] || {}, stale: false });
    if (st.el) F.render(st, st.binds, st.doc, null);
    return true;
  }

  function place(st, url) {
    const { el } = st;
    // A modal's template names its role (role="dialog" aria-modal="true" aria-labelledby="…").
    if (st.place === K.MODAL) el.addEventListener('keydown', (event) => event.key === 'Escape' && !st.backed && history.back());
    (st.place === K.MODAL ? modals : outlet).append(el);
    if (st.place !== K.ROOT) {
      Object.assign(st, { returnFocus: document.activeElement, scroll: scrollY });
      layers.push(st);
      addEntry(layers.length, url);
    }
    layout();
    if (st.place === K.MODAL) (el.querySelector('[autofocus]') || el.querySelector('input,select,textarea,button,a[href]') || el).focus();
    else if (st.place === K.PUSH) el.focus({ preventScroll: true }), scrollTo(0, 0);
  }

  // After a reload the entries up to the current one exist already. A history.back() still on its
  // way would land after a pushState made now, so that waits.
  // A deep link's first push finds its own address on the root entry: the root gets "/".
  // An entry at this depth already (a reload) is rewritten rather than added to.
  function addEntry(depth, url) {
    if (skipPops) return void waiting.push(() => addEntry(depth, url));
    if (!historyDepth() && url === location.pathname) history.replaceState({}, '', '/');
    if (depth > historyDepth()) history.pushState({ [K.HISTORY_DEPTH]: depth }, '', url || location.href);
    else history.replaceState({ [K.HISTORY_DEPTH]: depth }, '', url || location.href);
  }

  // Only the top of the stack shows: the last pushed stage, or else every root stage.
  function layout() {
    const top = layers.findLast((st) => st.place === K.PUSH);
    const modal = layers.some((st) => st.place === K.MODAL);
    for (const st of stages.values()) if (st.el && st.place !== K.MODAL) st.el.hidden = !!top && st !== top;
    outlet.inert = modal;
    modals.hidden = !modal;
  }

  function unmount(id) {
    const st = stages.get(id);
    if (!st) return;
    stages.delete(id);
    st.el?.remove();
    const index = layers.indexOf(st);
    if (index < 0) return layout();
    layers.splice(index, 1);
    // The server popped it, not the back button: take its History entry away too.
    if (!st.backed) skipPops++, history.back();
    layout();
    st.returnFocus?.focus({ preventScroll: true });
    if (st.place === K.PUSH) scrollTo(0, st.scroll);
  }

  function onPopState() {
    if (skipPops) return void (--skipPops || waiting.splice(0).forEach((add) => add()));
    // Forward into an entry whose stage the server has popped: go back where the page is.
    if (historyDepth() > layers.length) return skipPops++, history.go(layers.length - historyDepth());
    for (let i = layers.length - 1; i >= historyDepth(); i--) {
      const st = layers[i];
      if (!st.backed) (st.backed = true), F.sendEvent(st.id, K.BACK);
    }
  }

  function patch(message) {
    const st = stages.get(message[K.STAGE]);
    const what = `footlight: patch ${message[K.SEQ]} for stage "${message[K.STAGE]}"`;
    if (!st || st.doc === undefined) return console.error(`${what}: not mounted`), true;
    try {
      st.doc = P.applyPatch(st.doc, message[K.OPS]);
    } catch (error) {
      return console.error(`${what}: ${error.message}`), false;
    }
    if (st.el) F.render(st, st.binds, st.doc, P.changedPaths(message[K.OPS]));
    return true;
  }

  /** Carries out one state message (mount, unmount, open, patch); false when a patch fails. */
  function apply(message) {
    const type = message[K.T];
    if (type === K.MOUNT) return mount(message);
    if (type === K.PATCH) return patch(message);
    if (type === K.UNMOUNT) unmount(message[K.STAGE]);
    else if (type === K.OPEN) window.open(message[K.URL], '_blank', 'noopener');
    else console.error('footlight: unknown message', message);
    return true;
  }

  // The documents are gone (snapshot, new session, resync): mounts follow. Stages mounted again
  // keep their elements; the others are removed a little later.
  function reset() {
    for (const st of stages.values()) Object.assign(st, { stale: true, doc: undefined });
    clearTimeout(sweeper);
    sweeper = setTimeout(() => [...stages.values()].forEach((st) => st.stale && unmount(st.id)), K.SWEEP_MS);
  }

  function boot() {
    outlet = document.getElementById(K.OUTLET); // the page must have both outlets
    modals = document.getElementById(K.MODALS);
    addEventListener('popstate', onPopState);
    F.connect({ apply, reset, consumed: F.consumed });
  }

  if (typeof window === 'object' && typeof document === 'object') {
    F.report = report;
    window.footlight = {
      send: F.sendEvent,
      state() {
        const state = F.connection();
        state.documents = {};
        for (const [id, st] of stages) if (st.doc !== undefined) state.documents[id] = st.doc;
        return state;
      },
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
    else boot();
  }

  return { report };
});
