/*
 * Footlight browser runtime (Bindings.md, Protocol.md). Loaded last of the runtime; wires the
 * other files together and boots the page: carries out the server's state messages (mount,
 * unmount, patch, open, run), sends the events of the stages' controls and hooks (the commands
 * declared on an event first, and its value kept with its stage when the event is recoverable;
 * those of a stage a rebuild has not named yet wait for it), and tells the server when the back
 * button closes a stage or goes to another of its addresses. Its exports, {send, hook, state}, are
 * window.footlight in the page, for hooks, debugging and tests; under Node the file only builds
 * them (no document, no boot).
 *
 * The wiring. Each file is a module: its factory takes the modules it needs and returns its own
 * exports. Under Node a file `require`s them; in the page each file sets one global of its own,
 * which only later files read. No file writes into another's exports or globals.
 *   file           global               role                                    factory takes
 *   constants.js   FootlightConstants   wire names, attributes, texts            nothing
 *   pointer.js     FootlightPointer     JSON Pointer                             nothing
 *   patch.js       FootlightPatch       JSON Patch                               pointer
 *   lists.js       FootlightLists       keyed list plans                         nothing
 *   bindings.js    FootlightBindings    output bindings                          K, lists
 *   events.js      FootlightEvents      event bindings                           K, bindings
 *   session.js     FootlightSession     the client's protocol bookkeeping        K
 *   storage.js     FootlightStorage     sessionStorage, duplicated tabs          K
 *   banner.js      FootlightBanner      the banner when not connected            K, storage
 *   keeping.js     FootlightKeeping     what the page shows, for a rebuild       K, storage
 *   transport.js   FootlightTransport   the WebSocket                            K, session, storage, banner, keeping
 *   history.js     FootlightHistory     History entries of the stack             K
 *   hooks.js       FootlightHooks       JavaScript hooks                         K, bindings
 *   stages.js      FootlightStages      the stages' elements, focus, modals      K, bindings, events, transport, keeping, history, hooks
 *   commands.js    FootlightCommands    client commands                          K, hooks, stages
 *   runtime.js     footlight            messages, events, boot                   K, patch, bindings, events, transport, history, hooks, stages, commands
 * A call against that order is a callback this file hands over at boot, before the socket opens,
 * as Phoenix LiveView's socket passes itself to each view it creates: bindings.init gets stages'
 * report and keep and events' isHeld, events.init and hooks.init get this file's sendFrom (which
 * calls transport's sendEvent), history.init this file's back, and transport.connect this file's
 * apply, stages' reset, rename and forget, and events' flush, notSent and consumed.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./constants.js'), require('./patch.js'), require('./bindings.js'), require('./events.js'), require('./transport.js'), require('./history.js'), require('./hooks.js'), require('./stages.js'), require('./commands.js'));
  } else {
    root.footlight = factory(root.FootlightConstants, root.FootlightPatch, root.FootlightBindings, root.FootlightEvents, root.FootlightTransport, root.FootlightHistory, root.FootlightHooks, root.FootlightStages, root.FootlightCommands);
  }
})(this, (K, jsonPatch, bindings, events, transport, stack, hooks, stages, commands) => {
  'use strict';

  // Whether a value from `el` may hold a password: a password field's, or a form's that has one.
  const secret = (el) => el.type === 'password' || (el.tagName === 'FORM' && [...el.elements].some((control) => control.type === 'password'));

  // An event from a control of stage `st` (events.js) or a hook: the commands declared on it run
  // first; then, unless it is the page's alone (null), it is numbered and sent, and its value kept
  // with the stage when the stage declared the event recoverable (never a value that may hold a
  // password). A component's value is kept with the stage it is placed in, named by the hosts
  // down to it ("form/email"), for the server to give back to the component its parent's scene
  // places again (none for a component of a list's row).
  function sendFrom(st, el, name, value) {
    // Nothing once the stage is gone: a hook's late event, input still waiting in a component
    // whose parent closed.
    if (stages.get(st.id) !== st) return null;
    const options = st.opts[name] || {};
    if (options[K.RUN]) commands.run(st, options[K.RUN]);
    if (options[K.LOCAL]) return null;
    // A stage a rebuild has not named yet (a component before its mount, a stage not shown
    // again): its events wait for its mount (`release`), at most 64 (then marked at their control
    // as not sent), and go to it; a stage not shown again goes with its controls.
    if (st.id[0] !== '~') return deliver(st, el, name, value);
    if (held.length < 64) held.push([st, el, name, value]);
    else el.classList.add(K.C_NOT_SENT);
    return null;
  }

  // Numbers and sends the event, keeping its value with its stage when it is recoverable.
  function deliver(st, el, name, value) {
    const options = st.opts[name] || {};
    // A component's value is kept, and goes to a rebuilt session, as its host stage's.
    let top = st;
    let kept = name;
    for (; top?.in && top.row == null; top = stages.get(top.in)) kept = `${top.at}/${kept}`;
    const keep = options[K.KEEP] && !secret(el) && top && !top.in;
    const again = keep ? [top.id, kept] : options[K.REPEAT] && [st.id, name];
    const number = transport.sendEvent(st.id, name, value, again);
    if (number && keep) {
      top.kept[kept] = value;
      stages.keep();
    }
    return number;
  }

  const held = []; // [st, el, name, value] of events waiting for their stage's rebuild

  // After a mount: the held events whose stage has its new id go to it, in order; those of a stage
  // gone are dropped with it.
  function release() {
    for (const h of held.splice(0)) if (stages.get(h[0].id) === h[0]) h[0].id[0] === '~' ? held.push(h) : deliver(...h);
  }

  // The back button closed stage `st`, or Back or Forward went to its address `url` (history.js).
  function back(st, url) {
    const name = url ? `@${K.ADDRESS}` : K.BACK;
    // Input still waiting in a debounce goes first, while its stage is there to take it.
    events.flush();
    // Safe to repeat: a rebuilt session gets it again (going back twice closes nothing more; an
    // address sets state). Not for a root gone; the server refuses an address longer than
    // Address.maximumBytes.
    if (stages.get(st.id) === st) transport.sendEvent(st.id, name, url, [st.id, name]);
    stages.keep();
  }

  function patch(message) {
    const st = stages.get(message[K.STAGE]);
    const what = `footlight: patch ${message[K.SEQ]} for stage "${message[K.STAGE]}"`;
    if (st?.doc === undefined) return console.error(`${what}: not mounted`), true;
    try {
      st.doc = jsonPatch.applyPatch(st.doc, message[K.OPS]);
    } catch (error) {
      return console.error(`${what}: ${error.message}`), false;
    }
    if (st.el) stages.render(st, jsonPatch.changedPaths(message[K.OPS]));
    return true;
  }

  /** Carries out one state message (mount, unmount, open, run, patch, address); false when a patch fails. */
  function apply(message) {
    const type = message[K.T];
    if (type === K.PATCH) return patch(message);
    const st = stages.get(message[K.STAGE]);
    if (type === K.MOUNT) stages.mount(message), release();
    else if (type === K.UNMOUNT) stages.unmount(message[K.STAGE]);
    else if (type === K.ADDRESS) st && (stack.address(st, (st.url = message[K.URL]), message[K.REPLACE]), stages.keep());
    else if (type === K.RUN) st && Array.isArray(message[K.DO]) && commands.run(st, message[K.DO]);
    else if (type === K.OPEN) window.open(message[K.URL], '_blank', 'noopener');
    else console.error('footlight: unknown message', message);
    return true;
  }

  function boot() {
    // The calls against the load order (see the header), handed over before any can happen.
    // A control whose event waits for its stage's rebuild keeps what was typed.
    bindings.init(stages.report, (el) => events.isHeld(el) || held.some((h) => h[1] === el), stages.keep);
    events.init(sendFrom);
    hooks.init(stages.report, sendFrom);
    stack.init(back);
    stages.init();
    const { reset, rename, forget } = stages;
    transport.connect({ apply, reset, rename, forget, flush: events.flush, notSent: events.notSent, consumed: events.consumed });
  }

  if (typeof document === 'object') {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
    else boot();
  }

  // The exports: window.footlight in the page.
  return {
    send: transport.sendEvent,
    /** Registers hook `name` ({mounted, updated, destroyed, received}, each optional) and runs it on
     * the elements already shown that name it. */
    hook(name, callbacks) {
      hooks.register(name, callbacks);
      for (const st of stages.all()) if (st.el && st.doc !== undefined) hooks.sync(st);
    },
    state() {
      const state = transport.connection();
      state.documents = {};
      for (const st of stages.all()) if (st.doc !== undefined) state.documents[st.id] = st.doc;
      return state;
    },
  };
});
