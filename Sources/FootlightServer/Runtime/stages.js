/*
 * Footlight browser runtime: the stages shown in the page (Bindings.md, Protocol.md). Mounts each
 * stage's template (with the templates it includes) at the root, pushed on the navigation stack
 * (history.js), as a modal (Escape closes it, Tab stays in it), or as a component in its parent's
 * element that names it; renders document changes, keeping focus on something sensible when an
 * update disables, hides or removes the focused control; reports binding errors; removes stages,
 * at once or, after a snapshot, those not mounted again; and renames them after a rebuild.
 * Needs constants.js, bindings.js, events.js, transport.js, keeping.js, history.js and hooks.js;
 * in the page its exports are the global FootlightStages.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./constants.js'), require('./bindings.js'), require('./events.js'), require('./transport.js'), require('./keeping.js'), require('./history.js'), require('./hooks.js'));
  } else {
    root.FootlightStages = factory(root.FootlightConstants, root.FootlightBindings, root.FootlightEvents, root.FootlightTransport, root.FootlightKeeping, root.FootlightHistory, root.FootlightHooks);
  }
})(this, (K, bindings, events, transport, keeping, stack, hooks) => {
  'use strict';

  const stages = new Map(); // instance id → {id, template, place, el, doc, opts, binds, …}
  let restoring = 0; // mounts still to come after a snapshot, before History is checked against them
  let sweeper;
  let outlet;
  let modals;

  /** Finds the page's outlets (it must have both) and handles the keys of modals. */
  function init() {
    outlet = document.getElementById(K.OUTLET);
    modals = document.getElementById(K.MODALS);
    document.addEventListener('keydown', onKeyDown);
  }

  /** Logs a binding error with its stage and sends it to the server (once per stage and message). */
  function report(st, message) {
    if (st.reported.has(message)) return;
    st.reported.add(message);
    console.error(`footlight: stage "${st.id}": ${message}`);
    transport.sendReport(st.id, message);
  }

  /** Tells keeping.js what the page shows now. */
  const keep = () => keeping.keep(stages.values());

  /** Shows the stage of a mount message, or gives it its new document. */
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
      stages.set(id, (st = { id, template, place: where, url: message[K.URL], kept: keeping.keptValues(id, template), reported: new Set(), hooks: new Map(), in: message[K.IN], at: message[K.AT], row: message[K.ID] }));
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
    // Mounted again at another address (a rebuild's routing): the address bar follows.
    const url = message[K.URL];
    if (url && url !== st.url) stack.address(st, (st.url = url), true);
    Object.assign(st, { id, in: message[K.IN], doc: message[K.DOC], opts: message[K.EVENTS] || {}, stale: false });
    if (st.el) render(st);
    // The whole page is here again (after a reload, the History entries were already there): the
    // stages not mounted again are gone from the server and go now (one left on top would refuse
    // what is typed in it), and History goes back to what shows.
    const whole = restoring && !--restoring;
    if (whole) sweep(), stack.settle();
    // Kept once the whole page is here (its last mount may be a component's), not once per mount
    // of it; a component mounted later changes nothing kept.
    if (whole || (!restoring && !st.in)) keep();
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

  /**
   * Renders a document change of stage `st` (`slots`: the slots it changed; none: all); a focused
   * control it disabled, hid or removed would leave focus on <body> (and Escape and Tab with it):
   * focus goes to its nearest focusable ancestor, or the stage.
   */
  function render(st, slots) {
    const focused = document.activeElement;
    const inside = focused !== st.el && st.el.contains(focused);
    bindings.render(st, st.binds, st.doc, slots);
    hooks.sync(st);
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
      stack.push(st, st.url);
    } else if (st.url) stack.address(st, st.url, true); // a root's address reaches the address bar
    layout();
    if (st.place === K.MODAL) (st.focused = el.querySelector('[autofocus]') || el.querySelector('a[href],button,input,select,textarea') || el).focus();
    else if (st.place === K.PUSH) el.focus({ preventScroll: true }), scrollTo(0, 0);
  }

  // Only the top of the stack shows: the last pushed stage, or else every root stage.
  function layout() {
    const top = stack.topPushed();
    const modal = stack.hasModal();
    for (const st of stages.values()) if (st.el && (st.place === K.ROOT || st.place === K.PUSH)) st.el.hidden = !!top && st !== top;
    outlet.inert = modal;
    modals.hidden = !modal;
  }

  /** Removes stage `id` (a title it set goes back to what it was), if it is shown. */
  function unmount(id) {
    const st = stages.get(id);
    if (!st) return;
    stages.delete(id);
    st.el?.remove();
    hooks.destroy(st); // the stage and its hooks go
    if ('title' in st) document.title = st.title;
    if (st.in) return; // a component changes neither what the page keeps nor which stage shows
    keep();
    // History goes back to what shows: the server popped it (not the back button), or the user
    // went forward again before the server answered their back. A root: what shows stays as it is.
    if (!stack.remove(st)) return;
    layout();
    // Focus (and what is being typed) stays where it is unless it went with the stage: a stage below
    // the top one goes (a rebuild's). Else back where the stage was opened from, unless that is gone
    // or hidden now (the "Sign in" button once signed in): then the stage that shows on top.
    if (document.activeElement !== document.body) return;
    const back = st.returnFocus;
    const top = stack.top() || [...stages.values()].find((other) => other.el && !other.el.hidden);
    (back && canFocus(back) ? back : top?.el)?.focus({ preventScroll: true });
    if (st.place === K.PUSH) scrollTo(0, st.scroll);
  }

  // Escape closes the top modal; Tab and Shift+Tab go round inside it (the page behind is inert).
  function onKeyDown(event) {
    const top = stack.top();
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

  // The documents are gone (snapshot, new session, resync): `mounts` follow. Stages mounted again
  // keep their elements; the others are removed a little later.
  function reset(mounts) {
    restoring = mounts;
    if (!mounts) stack.settle();
    for (const st of stages.values()) {
      st.stale = true;
      st.doc = undefined;
    }
    clearTimeout(sweeper);
    sweeper = setTimeout(sweep, K.SWEEP_MS);
  }

  const sweep = () => [...stages.values()].forEach((st) => st.stale && unmount(st.id));

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

  /** The stage shown as `id`, or undefined; and all of them. */
  const get = (id) => stages.get(id);
  const all = () => [...stages.values()];

  return { init, report, keep, mount, render, unmount, reset, forget, rename, get, all };
});
