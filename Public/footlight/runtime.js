/*
 * Footlight browser runtime: stages (Bindings.md, Protocol.md). Loaded last; wires the other
 * files together and boots the page.
 * Mounts each stage's template at the root, pushed on the navigation stack (with a History
 * entry, popped by the back button through `@back`) or as a modal (Escape closes it, Tab stays
 * in it); applies patches, keeping focus on something sensible when an update disables, hides
 * or removes the focused control; opens URLs; runs client commands (focus, scroll, title, clipboard,
 * classes, a message for a hook) sent by the server or declared on an event; runs the page's
 * JavaScript hooks on the elements that name them; reports binding errors; keeps what the page shows (each
 * stage's place and template, and the last value sent for each event it declared recoverable) for
 * a server that lost the session to rebuild it, and takes the stages' new ids after such a rebuild.
 * Its exports, {send, state, hook}, are window.footlight in the page,
 * for debugging and tests; under Node the file only builds them (no document, no boot).
 *
 * The wiring. Each file is a module: its factory takes the modules it needs and returns its own
 * exports. Under Node a file `require`s them; in the page each file sets one global of its own,
 * which only later files read. No file writes into another's exports or globals.
 *   file           global               factory takes
 *   constants.js   FootlightConstants   nothing
 *   patch.js       FootlightPatch       nothing
 *   bindings.js    FootlightBindings    K (constants)
 *   events.js      FootlightEvents      K, bindings (rowId, release)
 *   transport.js   FootlightTransport   K
 *   runtime.js     footlight            K, patch, bindings, events, transport
 * A call against that order is a callback this file hands over at boot, before the socket opens,
 * as Phoenix LiveView's socket passes itself to each view it creates: bindings.init gets this
 * file's report and events' isHeld, events.init gets this file's sendFrom (which calls transport's
 * sendEvent), and transport.connect gets this file's apply, reset, rename and forget and events'
 * flush, notSent and consumed.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(
      require('./constants.js'),
      require('./patch.js'),
      require('./bindings.js'),
      require('./events.js'),
      require('./transport.js'),
    );
  } else {
    root.footlight = factory(
      root.FootlightConstants,
      root.FootlightPatch,
      root.FootlightBindings,
      root.FootlightEvents,
      root.FootlightTransport,
    );
  }
})(this, (K, jsonPatch, bindings, events, transport) => {
  'use strict';

  const stages = new Map(); // instance id → {id, template, place, el, doc, opts, binds, …}
  const layers = []; // the stages with a History entry (pushed and modal), bottom first
  const trips = []; // the runtime's own History moves (go(-n)) whose popstate has not come yet
  const waiting = []; // History entries to add once those have landed
  let restoring = 0; // mounts still to come after a snapshot, before History is checked against them
  let sweeper;
  let outlet;
  let modals;

  const historyDepth = () => history.state?.[K.HISTORY_DEPTH] | 0;

  // Moves History back to `depth` if it is deeper (entries ahead are added by addEntry alone), from
  // where it will be once the runtime's own moves have landed.
  function travel(depth) {
    const delta = trips.reduce((rest, trip) => rest - trip, depth - historyDepth());
    if (delta >= 0) return;
    trips.push(delta);
    history.go(delta);
  }

  /** Logs a binding error with its stage and sends it to the server (once per stage and message). */
  function report(st, message) {
    if (st.reported.has(message)) return;
    st.reported.add(message);
    console.error(`footlight: stage "${st.id}": ${message}`);
    transport.sendReport(st.id, message);
  }

  function mount(message) {
    const id = message[K.STAGE];
    const template = message[K.TEMPLATE];
    // A rebuilt session's component takes over the element of the one that was in its place
    // (`rename`): focus and what is being typed stay.
    let st = stages.get(id) || stages.get(`~${message[K.IN]}/${message[K.AT]}/${message[K.ID]}`);
    // A stage mounted again (after a snapshot or a new session) keeps its element, focus and all.
    if (!st || st.template !== template) {
      unmount(id); // the one with another template, if any
      // A component sits in its parent's element that names it (K.IN: `in` the parent `at` a host).
      const where = message[K.IN] ? K.IN : message[K.PLACE] || K.ROOT;
      // `kept`: its values from before a reload, if any.
      stages.set(id, (st = { id, template, place: where, url: message[K.URL], kept: transport.keptValues(id, template), reported: new Set(), hooks: new Map(), in: message[K.IN], at: message[K.AT], row: message[K.ID] }));
      const content = contentOf(st, template, 0);
      if (content) {
        const el = (st.el = document.createElement('section'));
        el.className = K.C_STAGE;
        el.setAttribute(K.A_STAGE_ID, id);
        el.tabIndex = -1;
        el.append(content);
        st.binds = bindings.bindTree(el, st, '');
        events.listen(st);
        if (st.in) host(st);
        else place(st);
      }
    }
    if (st.id !== id) {
      stages.delete(st.id);
      stages.set(id, st);
      st.el?.setAttribute(K.A_STAGE_ID, id);
    }
    Object.assign(st, { id, in: message[K.IN], doc: message[K.DOC], opts: message[K.EVENTS] || {}, stale: false });
    if (st.el) render(st);
    // The whole page is here again (after a reload, the History entries were already there): an
    // entry deeper than the stack shows is gone from the server, so History goes back to what shows.
    const whole = restoring && !--restoring;
    if (whole) travel(layers.length);
    // Kept once the whole page is here (its last mount may be a component's), not once per mount
    // of it; a component mounted later changes nothing kept.
    if (whole || (!restoring && !st.in)) keepPage();
    return true;
  }

  // A copy of the content of the page's template `name`, `depth` includes deep (reported and null
  // when there is none, or when it would be more than 8 deep), in which each element that names a
  // template to include (data-include="account-form") is replaced with that template's content, or
  // left as it is when there is none. (A list's row template is content of its own: an element
  // there is left as it is.)
  function contentOf(st, name, depth) {
    const source = depth <= 8 && document.querySelector(`template[${K.A_TEMPLATE}="${CSS.escape(name)}"]`);
    if (!source) return report(st, `no <template ${K.A_TEMPLATE}="${name}"> in the page${depth <= 8 ? '' : ', or included 8 deep'}`);
    const content = source.content.cloneNode(true);
    for (const el of content.querySelectorAll(`[${K.A_INCLUDE}]`)) {
      const included = contentOf(st, el.getAttribute(K.A_INCLUDE), depth + 1);
      if (included) el.replaceWith(included);
    }
    return content;
  }

  // Puts component `st` in the element of its parent that names its host: in its row for a
  // component per row (the row's element itself, or one inside it).
  function host(st) {
    const parent = stages.get(st.in);
    const selector = `[${K.A_COMPONENT}="${CSS.escape(st.at)}"]`;
    const scope = st.row == null ? parent?.el : parent?.binds?.map((b) => b.rows?.get(st.row)).find(Boolean)?.node;
    // Not one inside a component placed there already. (A list's components and a single one
    // have hosts of their own names.)
    const el = [scope, ...(scope?.querySelectorAll(selector) || [])].find((h) => h?.matches(selector) && h.closest(`.${K.C_STAGE}`) === parent.el);
    if (!el) return report(st, `no element ${selector} in stage "${st.in}"`); // nor in its row
    el.replaceChildren(st.el);
    // A component placed in a modal just shown takes focus where it asks for it, unless the user
    // moved focus since the modal took it.
    let top = parent;
    while (top?.in) top = stages.get(top.in);
    const auto = st.el.querySelector('[autofocus]');
    if (auto && top?.focused === document.activeElement) (top.focused = auto).focus();
  }


  const RANK = { [K.ROOT]: 0, [K.PUSH]: 1, [K.MODAL]: 2 };

  // Tells the transport what the page shows, in the server's page order (roots, the stack, modals).
  // A component is not named: its parent's scene places it again.
  function keepPage() {
    // A stage the back button is closing is left out: a rebuild would only bring it back.
    const shown = [...stages.values()].filter((st) => st.el && !st.stale && !st.backed && st.place !== K.IN).sort((a, b) => RANK[a.place] - RANK[b.place]);
    transport.keepPage(
      shown.map((st) => {
        const stage = { id: st.id, [K.TEMPLATE]: st.template };
        if (st.place !== K.ROOT) stage[K.PLACE] = st.place;
        if (st.url) stage[K.URL] = st.url;
        if (Object.keys(st.kept).length) stage[K.VALUES] = st.kept;
        return stage;
      }),
    );
  }

  // Client commands (ClientCommand in Swift): `at` selects inside the stage's element.
  const ON_ELEMENT = {
    focus: (el) => el.focus(),
    scroll: (el) => el.scrollIntoView({ block: 'nearest' }),
    'add-class': (el, command) => el.classList.add(command[K.CLASS]),
    'remove-class': (el, command) => el.classList.remove(command[K.CLASS]),
    'toggle-class': (el, command) => el.classList.toggle(command[K.CLASS]),
    'set-attr': (el, command) => el.setAttribute(command[K.ATTR], command[K.VALUES]?.[0] ?? ''),
    'toggle-attr': (el, command) => {
      const [first = '', second = ''] = command[K.VALUES] || [];
      el.setAttribute(command[K.ATTR], el.getAttribute(command[K.ATTR]) === first ? second : first);
    },
  };

  // Runs `commands` for stage `st`. A title set by a stage goes back to what it was when the stage
  // goes; a command that finds no element, or that the page does not know, is reported.
  function run(st, commands) {
    for (const command of commands) {
      const what = command[K.DO];
      if (what === 'title') {
        st.title ??= document.title;
        document.title = command[K.TEXT];
      } else if (what === 'copy') {
        const clipboard = self.navigator?.clipboard;
        if (clipboard) clipboard.writeText(command[K.TEXT]).catch((error) => console.warn(`footlight: copy refused: ${error.message}`));
        else report(st, 'no clipboard in this page (not a secure context?)');
      } else if (what === 'push') {
        const to = [...st.hooks.values()].filter((h) => h.name === command[K.HOOK]);
        for (const h of to) callHook(st, h, 'received', command[K.VALUE]);
        if (!to.length && st.el) report(st, `no hook "${command[K.HOOK]}" for a pushed message`);
      } else if (Object.hasOwn(ON_ELEMENT, what)) {
        let el = null;
        try {
          el = st.el?.querySelector(command[K.AT]);
        } catch {} // not a selector: reported below
        if (!el) {
          if (st.el) report(st, `no element "${command[K.AT]}" for the command "${what}"`);
          continue;
        }
        try {
          ON_ELEMENT[what](el, command);
        } catch (error) {
          report(st, `the command "${what}" failed: ${error.message}`); // an attribute name the DOM refuses
        }
      } else report(st, `unknown command "${what}"`);
    }
  }

  // JavaScript hooks (Bindings.md, "JavaScript hooks"): callbacks the page registers by name, run on the elements
  // that name them (data-hook="chart" or "chart:history"). An instance, {el, value, send}, is made
  // when a render finds its element, updated when its slot's value changed (patches copy what they
  // change, so a changed value is a new one), and destroyed with its element or its stage.
  const hooks = new Map(); // name → {mounted, updated, destroyed, received}

  function callHook(st, h, what, arg) {
    try {
      hooks.get(h.name)[what]?.(h, arg);
    } catch (error) {
      report(st, `hook "${h.name}" failed in ${what}: ${error.message}`);
    }
  }

  // Brings stage `st`'s hook instances in line with its elements and document.
  function syncHooks(st) {
    const live = new Set();
    for (const el of st.el.querySelectorAll(`[${K.A_HOOK}]`)) {
      const [name, slot] = el.getAttribute(K.A_HOOK).split(':');
      if (!hooks.has(name) || el.closest(`.${K.C_STAGE}`) !== st.el) continue; // a component's is its own
      live.add(el);
      const value = slot ? bindings.readPath(st.doc, slot.split('.')) : undefined;
      let h = st.hooks.get(el);
      if (!h) {
        // Sends an event of the stage's at once, with its declared commands (no pacing: that is
        // for controls).
        st.hooks.set(el, (h = { el, name, value, send: (event, v) => sendFrom(st, el, event, v) }));
        callHook(st, h, 'mounted');
      } else if (value !== h.value) {
        h.value = value;
        callHook(st, h, 'updated');
      }
    }
    for (const [el, h] of st.hooks) {
      if (live.has(el)) continue;
      st.hooks.delete(el);
      callHook(st, h, 'destroyed');
    }
  }

  // Whether a value from `el` may hold a password: a password field's, or a form's that has one.
  const secret = (el) => el.type === 'password' || (el.tagName === 'FORM' && [...el.elements].some((control) => control.type === 'password'));

  // An event from a control of stage `st` (events.js): the commands declared on it run first; then,
  // unless it is the page's alone (null), it is numbered and sent, and its value kept with the stage
  // when the stage declared the event recoverable (never a value that may hold a password). A
  // component's value is kept with the stage it is placed in, named by the hosts down to it
  // ("form/email"), for the server to give back to the component its parent's scene places again
  // (none for a component of a list's row).
  function sendFrom(st, el, name, value) {
    // Nothing once the stage is gone: a hook's late event, input still waiting in a component
    // whose parent closed.
    if (stages.get(st.id) !== st) return null;
    const options = st.opts[name] || {};
    if (options[K.RUN]) run(st, options[K.RUN]);
    if (options[K.LOCAL]) return null;
    // A component's value is kept, and goes to a rebuilt session, as its host stage's.
    let top = st;
    let kept = name;
    for (; top?.in && top.row == null; top = stages.get(top.in)) kept = `${top.at}/${kept}`;
    const keep = options[K.KEEP] && !secret(el) && top && !top.in;
    const again = keep ? [top.id, kept] : options[K.REPEAT] && [st.id, name];
    const number = transport.sendEvent(st.id, name, value, again);
    if (number && keep) {
      top.kept[kept] = value;
      keepPage();
    }
    return number;
  }

  // A new session that was not rebuilt: the values the stages kept belong to the old one, and its
  // components go (the new session numbers its own from 1 again, perhaps in other places).
  function forget() {
    for (const st of stages.values()) st.in ? unmount(st.id) : (st.kept = {});
  }

  // A rebuilt session: the stages the server showed again take their new ids (keeping their
  // elements, focus and typed text); the others get ids no server stage has, and go when stale.
  // A component of a stage that came back gets one naming its place, for the rebuilt session's
  // component there to take over (`mount`).
  function rename(moved) {
    const all = [...stages.values()];
    stages.clear();
    for (const st of all) {
      st.id = moved.get(st.id) ?? `~${moved.get(st.in) ?? st.id}/${st.at}/${st.row}`;
      st.el?.setAttribute(K.A_STAGE_ID, st.id);
      stages.set(st.id, st);
    }
  }

  // Renders a document change (`slots`: the slots it changed; none: all); a focused control it
  // disabled, hid or removed would leave focus on <body> (and Escape and Tab with it): focus goes
  // to its nearest focusable ancestor, or the stage.
  function render(st, slots) {
    const focused = document.activeElement;
    const inside = focused !== st.el && st.el.contains(focused);
    bindings.render(st, st.binds, st.doc, slots);
    syncHooks(st);
    if (inside && !canFocus(focused)) {
      const holder = focused.isConnected && focused.parentElement?.closest('[tabindex]');
      (holder && st.el.contains(holder) ? holder : st.el).focus({ preventScroll: true });
    }
  }

  const canFocus = (el) => el.isConnected && !el.disabled && el.checkVisibility?.() !== false;

  function place(st) {
    const { el } = st;
    // A modal's template names its role (role="dialog" aria-modal="true" aria-labelledby="…").
    (st.place === K.MODAL ? modals : outlet).append(el);
    if (st.place !== K.ROOT) {
      Object.assign(st, { returnFocus: document.activeElement, scroll: scrollY });
      layers.push(st);
      addEntry(layers.length, st.url);
    }
    layout();
    if (st.place === K.MODAL) (st.focused = el.querySelector('[autofocus]') || el.querySelector('a[href],button,input,select,textarea') || el).focus();
    else if (st.place === K.PUSH) el.focus({ preventScroll: true }), scrollTo(0, 0);
  }

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

  // Only the top of the stack shows: the last pushed stage, or else every root stage.
  function layout() {
    const top = layers.findLast((st) => st.place === K.PUSH);
    const modal = layers.some((st) => st.place === K.MODAL);
    for (const st of stages.values()) if (st.el && RANK[st.place] < 2) st.el.hidden = !!top && st !== top; // roots and pushes
    outlet.inert = modal;
    modals.hidden = !modal;
  }

  function unmount(id) {
    const st = stages.get(id);
    if (!st) return;
    stages.delete(id);
    st.el?.remove();
    for (const h of st.hooks.values()) callHook(st, h, 'destroyed'); // the stage and its hooks go
    if ('title' in st) document.title = st.title;
    if (st.in) return; // a component changes neither what the page keeps nor which stage shows
    keepPage();
    const index = layers.indexOf(st);
    if (index < 0) return; // a root: what shows stays as it is
    layers.splice(index, 1);
    // History goes back to what shows: the server popped it (not the back button), or the user
    // went forward again before the server answered their back.
    travel(layers.length);
    layout();
    // Back where the stage was opened from, unless that is gone or hidden now (the "Sign in" button
    // once signed in): then the stage that shows on top.
    const back = st.returnFocus;
    const top = layers.at(-1) || [...stages.values()].find((other) => other.el && !other.el.hidden);
    (back && canFocus(back) ? back : top?.el)?.focus({ preventScroll: true });
    if (st.place === K.PUSH) scrollTo(0, st.scroll);
  }

  // Escape closes the top modal; Tab and Shift+Tab go round inside it (the page behind is inert).
  function onKeyDown(event) {
    const top = layers.at(-1);
    if (top?.place !== K.MODAL || event.defaultPrevented) return;
    if (event.key === 'Escape' && !top.backed) {
      event.preventDefault();
      history.back();
    } else if (event.key === 'Tab') {
      // What Tab goes to in the modal, in page order.
      const targets = [...top.el.querySelectorAll('a[href],button,input,select,textarea,[tabindex]:not([tabindex="-1"])')].filter(canFocus);
      const at = targets.indexOf(document.activeElement);
      const wrap = event.shiftKey ? at <= 0 : at < 0 || at === targets.length - 1;
      if (!wrap) return;
      event.preventDefault();
      (event.shiftKey ? targets.at(-1) : targets[0])?.focus();
    }
  }

  function onPopState() {
    if (trips.length) return void (trips.shift(), trips.length || waiting.splice(0).forEach((add) => add()));
    // Forward into an entry whose stage the server has popped: go back where the page is.
    if (historyDepth() > layers.length) return travel(layers.length);
    for (let i = layers.length - 1; i >= historyDepth(); i--) {
      const st = layers[i];
      if (st.backed) continue;
      st.backed = true;
      // Input still waiting in a debounce goes first, while its stage is there to take it.
      events.flush();
      // Safe to repeat: a rebuilt session gets it again (going back twice closes nothing more).
      transport.sendEvent(st.id, K.BACK, undefined, [st.id, K.BACK]);
      keepPage();
    }
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
    if (st.el) render(st, jsonPatch.changedPaths(message[K.OPS]));
    return true;
  }

  /** Carries out one state message (mount, unmount, open, run, patch); false when a patch fails. */
  function apply(message) {
    const type = message[K.T];
    if (type === K.MOUNT) return mount(message);
    if (type === K.PATCH) return patch(message);
    if (type === K.UNMOUNT) unmount(message[K.STAGE]);
    else if (type === K.RUN) {
      const st = stages.get(message[K.STAGE]);
      if (st && Array.isArray(message[K.DO])) run(st, message[K.DO]);
    }
    else if (type === K.OPEN) window.open(message[K.URL], '_blank', 'noopener');
    else console.error('footlight: unknown message', message);
    return true;
  }

  // The documents are gone (snapshot, new session, resync): mounts follow. Stages mounted again
  // keep their elements; the others are removed a little later.
  function reset(mounts) {
    restoring = mounts;
    if (!mounts) travel(layers.length);
    for (const st of stages.values()) {
      st.stale = true;
      st.doc = undefined;
    }
    clearTimeout(sweeper);
    sweeper = setTimeout(() => [...stages.values()].forEach((st) => st.stale && unmount(st.id)), K.SWEEP_MS);
  }

  function boot() {
    outlet = document.getElementById(K.OUTLET); // the page must have both outlets
    modals = document.getElementById(K.MODALS);
    // The calls against the load order (see the header), handed over before any can happen.
    bindings.init(report, events.isHeld);
    events.init(sendFrom);
    addEventListener('popstate', onPopState);
    document.addEventListener('keydown', onKeyDown);
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
      hooks.set(name, callbacks);
      for (const st of stages.values()) if (st.el && st.doc !== undefined) syncHooks(st);
    },
    state() {
      const state = transport.connection();
      state.documents = {};
      for (const [id, st] of stages) if (st.doc !== undefined) state.documents[id] = st.doc;
      return state;
    },
  };
});
