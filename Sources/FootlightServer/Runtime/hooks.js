/*
 * Footlight browser runtime: JavaScript hooks (Bindings.md, "JavaScript hooks"): callbacks the page
 * registers by name, run on the elements that name them (data-hook="chart" or "chart:history"). An
 * instance, {el, value, send}, is made when a render finds its element, updated when its slot's
 * value changed (patches copy what they change, so a changed value is a new one), and destroyed
 * with its element or its stage; a message the server pushes to a hook goes to `received`.
 * Needs constants.js and bindings.js; in the page its exports are the global FootlightHooks.
 * Reporting a failure and sending an event (stages.js and runtime.js, loaded later) are functions
 * runtime.js hands to `init` at boot.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./bindings.js'));
  else root.FootlightHooks = factory(root.FootlightConstants, root.FootlightBindings);
})(this, (K, bindings) => {
  'use strict';

  const registry = new Map(); // name → {mounted, updated, destroyed, received}
  let report;
  let sendFrom;

  /** Wires the hooks to the files loaded later; runtime.js calls it at boot. */
  function init(reportError, send) {
    report = reportError;
    sendFrom = send;
  }

  /** Registers hook `name` ({mounted, updated, destroyed, received}, each optional). */
  function register(name, callbacks) {
    registry.set(name, callbacks);
  }

  function call(st, h, what, arg) {
    try {
      registry.get(h.name)[what]?.(h, arg);
    } catch (error) {
      report(st, `hook "${h.name}" failed in ${what}: ${error.message}`);
    }
  }

  /** Brings stage `st`'s hook instances in line with its elements and document. */
  function sync(st) {
    const live = new Set();
    for (const el of st.el.querySelectorAll(`[${K.A_HOOK}]`)) {
      const [name, slot] = el.getAttribute(K.A_HOOK).split(':');
      if (!registry.has(name) || el.closest(`.${K.C_STAGE}`) !== st.el) continue; // a component's is its own
      live.add(el);
      const value = slot ? bindings.readPath(st.doc, slot.split('.')) : undefined;
      let h = st.hooks.get(el);
      if (!h) {
        // Sends an event of the stage's at once, with its declared commands (no pacing: that is
        // for controls); inside a list row with the row's id, as the bindings' events: {...v, id}
        // for a record (the row's id wins), {id, value: v} for another value, {id} for none.
        const send = (event, v, id = bindings.rowId(el)) =>
          sendFrom(st, el, event, id === undefined ? v : { ...(v && typeof v === 'object' && !Array.isArray(v) ? v : { [K.VALUE]: v }), [K.ID]: id });
        st.hooks.set(el, (h = { el, name, value, send }));
        call(st, h, 'mounted');
      } else if (value !== h.value) {
        h.value = value;
        call(st, h, 'updated');
      }
    }
    for (const [el, h] of st.hooks) {
      if (live.has(el)) continue;
      st.hooks.delete(el);
      call(st, h, 'destroyed');
    }
  }

  /** Destroys the hook instances of stage `st`, which goes. */
  function destroy(st) {
    for (const h of st.hooks.values()) call(st, h, 'destroyed');
  }

  /** Gives `value` to stage `st`'s instances of hook `name`; false when it has none. */
  function push(st, name, value) {
    const to = [...st.hooks.values()].filter((h) => h.name === name);
    for (const h of to) call(st, h, 'received', value);
    return to.length > 0;
  }

  return { init, register, sync, destroy, push };
});
