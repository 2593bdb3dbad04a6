/*
 * Footlight browser runtime: event bindings (Bindings.md).
 * Pure part (tested under Node): the gate that carries out a mount's event options (debounce,
 * throttle, commit on blur) with an injectable clock, and the value rules for controls and forms.
 * DOM part: one delegated listener per event type on each stage element (a component placed in it
 * listens for its own elements); key filters; Enter in a form's field submits it through the
 * runtime; an element busy until its events are acknowledged (one declared one at a time counts
 * once meanwhile; a form's submits queue, at most K.MAX_SUBMITS); the slots an event sets in the
 * page at once; whether a control's slot updates wait; an event too large to send, or a submit past
 * the bound, refused at its control; one lost with its session marked at its control.
 * Needs constants.js and, from bindings.js, `rowId`, `release`, `unlock` and `write`; in the page
 * its exports are the global FootlightEvents. Sending an event (runtime.js, loaded later) is a
 * function that runtime.js hands to `init` at boot.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./bindings.js'));
  else root.FootlightEvents = factory(root.FootlightConstants, root.FootlightBindings);
})(this, (K, bindings) => {
  'use strict';

  const { rowId, release, unlock, write } = bindings;

  // ---- Pure ----------------------------------------------------------------------------------

  /**
   * Carries out one event's options for one element. `push(value)` offers the latest value;
   * `emit(value)` is called when it is due: at once with no options; `debounce` ms after the last
   * push; with `throttle`, at once and then at most once per `throttle` ms with the latest value;
   * with `commit: "blur"`, only on `flush()` (blur, or another event of the stage).
   * `flush()` emits a waiting value now; `pending` says whether one waits.
   * @param {{debounce?: number, throttle?: number, commit?: string}} options
   * @param {{now(): number, set(fn, ms): *, clear(timer): void}} clock
   */
  function gate(options, clock, emit) {
    const { [K.DEBOUNCE]: debounce, [K.THROTTLE]: throttle, [K.COMMIT]: commit } = options || {};
    let timer = null;
    let waiting = false;
    let value;
    let last = -Infinity;
    const fire = () => {
      clock.clear(timer);
      timer = null;
      if (!waiting) return;
      waiting = false;
      last = clock.now();
      emit(value);
    };
    return {
      get pending() {
        return waiting;
      },
      push(latest) {
        value = latest;
        waiting = true;
        if (commit === K.BLUR) return;
        if (debounce > 0) {
          clock.clear(timer);
          timer = clock.set(fire, debounce);
          return;
        }
        const wait = throttle > 0 ? last + throttle - clock.now() : 0;
        if (wait <= 0) fire();
        else if (timer === null) timer = clock.set(fire, wait);
      },
      flush: fire,
    };
  }

  /** A control's value in an event: `checked` for a checkbox, else `value`. */
  const controlValue = (control) => (control.type === 'checkbox' ? control.checked : control.value);

  /**
   * A form's named fields: checkboxes as booleans, a radio group as its checked value (absent when
   * none is), everything else as its value string; disabled controls and buttons are left out.
   */
  function formValue(form) {
    const fields = Object.create(null);
    for (const control of form.elements) {
      const { name, type } = control;
      if (!name || control.disabled || (type === 'radio' && !control.checked)) continue;
      if (!/^(submit|button|reset|image|file)$/.test(type)) fields[name] = controlValue(control);
    }
    return fields;
  }

  // ---- DOM -----------------------------------------------------------------------------------

  const clock = { now: Date.now, set: (fn, ms) => setTimeout(fn, ms), clear: (timer) => clearTimeout(timer) };
  const busy = new Map(); // element → the numbers of its unacknowledged events (or of one that set its slot), the last K.MAX_SUBMITS
  const gates = new WeakMap(); // element → {event name: gate}
  const waiting = new Set(); // every gate holding a value, in any stage, in the order typed
  let sendEvent; // (st, el, name, value) → the event's number, 0 if refused, null if the page's alone (runtime.js)

  /** Fields in which Enter submits their form (as browsers do it, for the runtime to do instead). */
  const submitsOnEnter = (el) => el.tagName === 'INPUT' && !/^(submit|button|reset|image|file|checkbox|radio|range|color)$/.test(el.type);

  /** Wires the DOM part to the file loaded later; runtime.js calls it at boot, before any stage mounts. */
  function init(send) {
    sendEvent = send;
    // Leaving or reloading the page: typed values still waiting go into the kept queue now.
    addEventListener('pagehide', flush);
  }

  /**
   * Sends every value still waiting in a gate, in any stage, in the order typed: any event but
   * input and change, and Back, goes after the input before it, even when that input is in another
   * stage (a form component beside its dialog's buttons).
   */
  const flush = () => [...waiting].forEach((g) => g.flush());

  /** Listens for the event bindings inside stage `st` (its element `st.el`, its options `st.opts`). */
  function listen(st) {
    // An element of a component placed in this stage is the component's (its own listeners), and an
    // element of this stage around a component is this stage's, wherever in it the event began.
    const mine = (el) => el?.closest(`.${K.C_STAGE}`) === st.el;
    const on = (type, handle) => st.el.addEventListener(type, (event) => mine(event.target) && handle(event));
    for (const type in K.ON) {
      const listener = (event) => {
        const el = event.target.closest(`[${K.ON[type]}]`);
        if (!mine(el)) return;
        if (type === 'submit' || (type === 'click' && el.tagName === 'A')) event.preventDefault();
        activate(st, el, type, event);
      };
      // focus and blur do not bubble: the stage hears them on their way down.
      st.el.addEventListener(type, listener, type === 'focus' || type === 'blur');
    }
    // Enter submits through the runtime whether or not the browser would: it drops the submission when
    // the form's default button is disabled, as a server-side binding may still have it because the
    // server has not seen what was just typed. The submit goes after that input and decides there.
    on('keydown', (event) => {
      const field = event.target;
      const form = field.form;
      if (event.key !== 'Enter' || event.isComposing || event.defaultPrevented || !submitsOnEnter(field)) return;
      if (!form || !form.hasAttribute(K.ON.submit) || !mine(form)) return;
      event.preventDefault();
      activate(st, form, 'submit', event);
    });
    // Typing into a form opens its submit buttons that a binding disabled, until the server answers.
    on('input', (event) => event.target.form && unlock(event.target.form));
    on('focusout', (event) => {
      Object.values(gates.get(event.target) || {}).forEach((g) => g.flush());
      setTimeout(release); // once focus has moved, held updates may apply
    });
  }

  // A DOM event of `type` on `el` (which has the binding attribute): its value, then the gate.
  function activate(st, el, type, event) {
    const name = el.getAttribute(K.ON[type]);
    const options = st.opts[name] || {};
    const keyboard = type.startsWith('key');
    // A key the event's filter leaves out is not its.
    if (keyboard && options[K.KEYS] && !options[K.KEYS].includes(event.key)) return;
    // An event declared one at a time counts once while the last one waits.
    if (options[K.SINGLE] && busy.has(el)) return;
    // A form's submits queue, each sent once, in order; past the bound one is refused at the form
    // (until its next submit that goes).
    if (type === 'submit' && busy.get(el)?.length >= K.MAX_SUBMITS) return el.classList.add(K.C_REFUSED);
    const id = rowId(el);
    const control = type === 'input' || type === 'change' || type === 'blur';
    // A key, with the value of the field it was pressed in (an edit field's Enter carries its text).
    const key = keyboard && { [K.KEY]: event.key, ...(/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && { [K.VALUE]: controlValue(el) }) };
    let value = control ? controlValue(el) : type === 'submit' ? formValue(el) : key || undefined;
    // Inside a list row: {id} for a click, {id, value} for a control, the row's id added otherwise.
    if (id !== undefined) value = control ? { [K.ID]: id, [K.VALUE]: value } : { [K.ID]: id, ...value };
    // Any event but a control's input goes after the input still waiting.
    if (type !== 'input' && type !== 'change') flush();
    trigger(st, el, name, value);
  }

  function trigger(st, el, name, value) {
    const options = st.opts[name];
    if (!options) return emit(st, el, name, value);
    let own = gates.get(el);
    if (!own) gates.set(el, (own = {}));
    const g = (own[name] ||= gate(options, clock, (latest) => {
      waiting.delete(g);
      emit(st, el, name, latest);
    }));
    waiting.add(g);
    g.push(value);
  }

  function emit(st, el, name, value) {
    const number = sendEvent(st, el, name, value);
    if (number === null) return; // the page's alone: its commands ran, nothing was sent
    const refused = number === 0;
    el.classList.remove(K.C_NOT_SENT);
    // Too large for the server: said at the control (which keeps what was typed), never sent.
    el.classList.toggle(K.C_REFUSED, refused);
    if (el.setCustomValidity) {
      el.setCustomValidity(refused ? K.text('TEXT_TOO_LARGE') : '');
      // Not on an email field: Chromium's address check of a value this long blocks the page
      // for seconds (70,000 characters: about 10 s), and reportValidity() runs it.
      if (refused && el.type !== 'email') el.reportValidity();
    }
    // Nothing is on its way: what the server last said applies (a submit button's lock).
    if (refused) return release();
    hold(el, number);
    el.setAttribute(K.A_BUSY, 'true');
    el.classList.add(K.C_BUSY);
    // The slots the event sets: their controls show the value now, and keep it (whatever the
    // server said before) until the server has the event.
    const sets = st.opts[name]?.[K.SET];
    for (const b of st.binds) {
      if (b.kind === 'value' && b.path.length === 1 && sets && Object.hasOwn(sets, b.path[0])) {
        hold(b.el, number);
        write(b, sets[b.path[0]]);
      }
    }
  }

  const hold = (el, number) => busy.set(el, [...(busy.get(el) || []).slice(1 - K.MAX_SUBMITS), number]);

  /**
   * Events up to `number` are consumed: their elements are no longer busy with them, but for those
   * sent again to a rebuilt session (`renumbered`: old number → new): they wait for those.
   */
  function consumed(number, renumbered) {
    for (const [el, numbers] of busy) {
      const left = numbers.flatMap((n) => renumbered?.[n] || (n > number ? n : []));
      if (left.length) busy.set(el, left);
      else {
        busy.delete(el);
        el.removeAttribute(K.A_BUSY);
        el.classList.remove(K.C_BUSY);
      }
    }
    release();
  }

  /** Events `numbers` were lost with their session, not sent again: their elements say so. */
  function notSent(numbers) {
    for (const [el, sent] of busy) if (sent.some((n) => numbers.includes(n))) el.classList.add(K.C_NOT_SENT);
  }

  /** Whether `el` has a value not yet sent, or sent and not yet acknowledged. */
  const unconfirmed = (el) => busy.has(el) || Object.values(gates.get(el) || {}).some((g) => g.pending);

  /**
   * Whether updates to `el`'s slot wait: a control's while it has input the server has not
   * acknowledged (so it never shows a value older than what was typed, focused or not); a submit
   * button's disabled state while any control of its form has.
   */
  function isHeld(el) {
    if (el.type === 'submit') return !!el.form && [...el.form.elements].some(unconfirmed);
    return unconfirmed(el);
  }

  return { gate, controlValue, formValue, init, listen, flush, notSent, consumed, isHeld };
});
