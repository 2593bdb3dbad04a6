/*
 * Footlight browser runtime: event bindings (Bindings.md).
 * Pure part (tested under Node): the gate that carries out a mount's event options (debounce,
 * throttle, commit on blur) with an injectable clock, and the value rules for controls and forms.
 * DOM part: one delegated listener per event type on each stage element; the busy state of an
 * element until its event is acknowledged; whether a control's slot updates must wait.
 * Needs constants.js and, from bindings.js, `rowId` and `release`; in the page its exports are
 * the global FootlightEvents. Sending an event (transport.js, loaded later) is a function that
 * runtime.js hands to `init` at boot.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./bindings.js'));
  else root.FootlightEvents = factory(root.FootlightConstants, root.FootlightBindings);
})(this, (K, bindings) => {
  'use strict';

  const { rowId, release } = bindings;

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

  const clock = { now: () => Date.now(), set: (fn, ms) => setTimeout(fn, ms), clear: (timer) => clearTimeout(timer) };
  const busy = new Map(); // element → the number of its latest unacknowledged event
  const gates = new WeakMap(); // element → {event name: gate}
  let sendEvent; // (stage, name, value) → the event's number: numbers, queues and sends it (transport.js)

  /** Wires the DOM part to the file loaded later; runtime.js calls it at boot, before any stage mounts. */
  function init(send) {
    sendEvent = send;
  }

  /** Listens for the event bindings inside stage `st` (its element `st.el`, its options `st.opts`). */
  function listen(st) {
    st.pending = new Set(); // gates holding a value
    for (const type in K.ON) {
      st.el.addEventListener(type, (event) => {
        const attribute = K.ON[type];
        const el = event.target.closest(`[${attribute}]`);
        if (!el) return;
        if (type === 'submit' || (type === 'click' && el.tagName === 'A')) event.preventDefault();
        const id = rowId(el);
        const control = type === 'input' || type === 'change';
        let value = control ? controlValue(el) : type === 'submit' ? formValue(el) : type === 'keydown' ? { [K.KEY]: event.key } : undefined;
        // Inside a list row: {id} for a click, {id, value} for a control, the row's id added otherwise.
        if (id !== undefined) value = control ? { [K.ID]: id, [K.VALUE]: value } : { [K.ID]: id, ...value };
        // A click or a submit goes after the input still waiting in this stage.
        if (type === 'click' || type === 'submit') for (const g of st.pending) g.flush();
        trigger(st, el, el.getAttribute(attribute), value);
      });
    }
    st.el.addEventListener('focusout', (event) => {
      const own = gates.get(event.target);
      if (own) for (const name in own) own[name].flush();
      setTimeout(release); // once focus has moved, held updates may apply
    });
  }

  function trigger(st, el, name, value) {
    const options = st.opts[name];
    if (!options) return emit(st, el, name, value);
    let own = gates.get(el);
    if (!own) gates.set(el, (own = {}));
    const g =
      own[name] ||
      (own[name] = gate(options, clock, (latest) => {
        st.pending.delete(g);
        emit(st, el, name, latest);
      }));
    st.pending.add(g);
    g.push(value);
  }

  function emit(st, el, name, value) {
    busy.set(el, sendEvent(st.id, name, value));
    el.setAttribute(K.A_BUSY, 'true');
    el.classList.add(K.C_BUSY);
  }

  /** Events up to `number` are consumed: their elements are no longer busy. */
  function consumed(number) {
    for (const [el, latest] of busy) {
      if (latest > number) continue;
      busy.delete(el);
      el.removeAttribute(K.A_BUSY);
      el.classList.remove(K.C_BUSY);
    }
    release();
  }

  /** Whether updates to `el`'s slot wait: it has focus and a value not yet sent or acknowledged. */
  function isHeld(el) {
    if (el !== document.activeElement) return false;
    const own = gates.get(el) || {};
    return busy.has(el) || Object.values(own).some((g) => g.pending);
  }

  return { gate, controlValue, formValue, init, listen, consumed, isHeld };
});
