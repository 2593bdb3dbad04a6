/*
 * Footlight browser runtime: output bindings (Bindings.md).
 * Pure part (tested under Node): binding-attribute parsing, path reading and truthiness. DOM part
 * (keyed lists planned by lists.js): binds a stage's cloned template and updates only the bindings
 * whose slots a patch changed; list rows keep their nodes (moved, never rebuilt); a control with
 * events in flight keeps what the user typed until they are acknowledged, and a submit button a
 * binding disables stays usable while its form has such a control.
 * Needs constants.js and lists.js; in the page its exports are the global FootlightBindings. The
 * DOM part calls two functions of files loaded later, which runtime.js hands to `init` at boot:
 * stages.js's `report` and events.js's `isHeld`.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./lists.js'));
  else root.FootlightBindings = factory(root.FootlightConstants, root.FootlightLists);
})(this, (K, lists) => {
  'use strict';

  const { planList } = lists;
  const { hasOwn } = Object;

  // ---- Pure ----------------------------------------------------------------------------------

  /**
   * Reads a binding's slot: "count", "seller.name", negated "!canSubmit", or "!!error": the
   * slot's truthiness as a boolean (for `aria-invalid:!!error`, true while there is an error);
   * or a slot compared with a literal, "filter=='active'" or "count!=0" (eq: whether the test is
   * ==, lit: the literal: 'text' or "text" (no escapes), a number, true, false or null).
   * @returns {{not: boolean, bool: boolean, path: string[], eq?: boolean, lit?: *}}
   * @throws {Error} for an empty name, an empty path segment, stray characters or a bad literal.
   */
  function parseSlot(text) {
    const [, not, path, op, lit] = /^\s*(!{0,2})\s*([^\s!:,='"]+)\s*(?:([!=])=\s*('[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|true|false|null)\s*)?$/.exec(text) || [];
    const slot = { not: not === '!', bool: not === '!!', path: path?.split('.') };
    // "!" does not combine with a comparison: "!a=='x'" could be read two ways.
    if (!path || slot.path.includes('') || (not && op)) throw new Error(`"${text}" is not a slot name, a dotted path or "slot==literal"`);
    return op ? { ...slot, eq: op === '=', lit: `'"`.includes(lit[0]) ? lit.slice(1, -1) : JSON.parse(lit) } : slot;
  }

  /**
   * Reads one binding attribute of kind `kind` (a key of K.BIND): one slot, or for attr and class a
   * comma-separated list of "name:slot" pairs (a comma inside a quoted literal is the literal's).
   * @returns {{kind: string, name?: string, not: boolean, path: string[]}[]}
   * @throws {Error} naming the attribute and what is wrong with it.
   */
  function parseBinding(kind, text) {
    try {
      if (kind !== 'attr' && kind !== 'class') {
        const slot = parseSlot(text);
        if ((slot.not || slot.bool || 'eq' in slot) && (kind === 'value' || kind === 'list')) throw new Error('"!" or a comparison cannot bind a value or a list');
        return [{ kind, ...slot }];
      }
      return text.split(/,(?=(?:[^'"]|'[^']*'|"[^"]*")*$)/).map((pair) => {
        const colon = pair.indexOf(':');
        const name = pair.slice(0, colon).trim();
        if (colon < 0 || !/^[^\s:,]+$/.test(name)) throw new Error(`"${pair.trim()}" is not "name:slot"`);
        return { kind, name, ...parseSlot(pair.slice(colon + 1)) };
      });
    } catch (error) {
      throw new Error(`${K.BIND[kind]}="${text}": ${error.message}`); // names the attribute
    }
  }

  /** The value at `path` inside `value`: null through a null record, undefined when a member is missing. */
  function readPath(value, path) {
    for (const key of path) {
      if (value === null) return null;
      if (typeof value !== 'object' || !hasOwn(value, key)) return undefined;
      value = value[key];
    }
    return value;
  }

  /** A slot's truthiness: JavaScript's, except that an empty array is false. */
  const truthy = (value) => (Array.isArray(value) ? value.length > 0 : !!value);

  // ---- DOM -----------------------------------------------------------------------------------

  const SELECTOR = Object.values(K.BIND).map((attribute) => `[${attribute}]`).join();
  const rowIds = new WeakMap(); // row element → its id
  const held = new Set(); // bindings waiting for their control's (or form's) events to be acknowledged
  const locks = new WeakMap(); // submit button → the binding of its `disabled` attribute
  let report; // (st, message): logs a binding error and sends it to the server (stages.js)
  let isHeld; // (el): whether updates to a control's slot wait (events.js)
  let keep; // (): what the page shows, its stages' kept values included, is kept again (stages.js)

  /** Wires the DOM part to the files loaded later; runtime.js calls it at boot, before any stage mounts. */
  function init(reportError, isHeldControl, keepPage) {
    [report, isHeld, keep] = [reportError, isHeldControl, keepPage];
  }

  /**
   * Binds the elements under `root` (and `root`) for stage `st`; `list` names the list when `root`
   * is a row. Errors are reported (`report`), never thrown. @returns the binding records.
   */
  function bindTree(root, st, list) {
    const binds = [];
    // `root` goes first like any element with bindings (one without has no attribute to read).
    for (const el of [root, ...root.querySelectorAll(SELECTOR)]) {
      for (const kind in K.BIND) {
        const text = el.getAttribute(K.BIND[kind]);
        if (text === null) continue;
        try {
          for (const b of parseBinding(kind, text)) {
            Object.assign(b, { el, st, list }); // b.last: the value shown (undefined: none yet)
            if (b.name === 'disabled' && el.type === 'submit') locks.set(el, b);
            if (kind === 'list') {
              b.template = el.querySelector('template');
              if (b.template?.content.childElementCount !== 1) throw new Error(`${K.BIND.list}="${text}" needs a <template> of one element`);
              el.textContent = '';
              Object.assign(b, { rows: new Map(), keys: [] });
            }
            binds.push(b);
          }
        } catch (error) {
          report(st, error.message);
        }
      }
    }
    return binds;
  }

  /** Updates the bindings in `binds` to `scope` (a document or a row): those of `slots`, or all (`whole`, see apply). */
  function render(st, binds, scope, slots, whole = !slots) {
    for (const b of binds) {
      if (slots && !slots.has('') && !slots.has(b.path[0])) continue;
      let value = readPath(scope, b.path);
      if (value === undefined) {
        report(st, `no slot "${b.path.join('.')}" in ${b.list ? `list "${b.list}"` : 'the document'}`);
        value = null;
      }
      apply(b, value, whole);
    }
  }

  /** Shows `raw` in value binding `b` now, held or not: the slot an event sets (events.js). */
  const write = (b, raw) => apply(b, raw, false, true);

  // `raw` is the slot's value as the document has it (held as such, negated when shown); `whole`:
  // from a document that replaces the stage's (a mount's); `now`: shown even while its control is held.
  function apply(b, raw, whole, now) {
    const { el, kind, name } = b;
    const value = 'eq' in b ? (raw === b.lit) === b.eq : b.not ? !truthy(raw) : b.bool ? truthy(raw) : raw;
    if (value === b.last && !held.has(b) && !now) return;
    // A control's value, and a submit button's lock, wait while the element is held (events.js's isHeld).
    if ((kind === 'value' || locks.get(el) === b) && isHeld(el) && !now) {
      b.hold = raw;
      held.add(b);
      return;
    }
    held.delete(b);
    Object.assign(b, { last: value, raw });
    if (kind === 'text') el.textContent = value == null ? '' : value;
    else if (kind === 'attr') {
      if (value == null || value === false) el.removeAttribute(name);
      // ARIA states are tokens: true is "true" there, the empty string elsewhere.
      else el.setAttribute(name, value === true ? (name.startsWith('aria-') ? 'true' : '') : value);
    } else if (kind === 'class') el.classList.toggle(name, truthy(value));
    else if (kind === 'show' || kind === 'hide') el.hidden = truthy(value) !== (kind === 'show');
    else if (kind === 'list') renderList(b, value, whole);
    else {
      const text = String(value ?? '');
      if (el.type === 'checkbox' || el.type === 'radio') el.checked = truthy(value);
      else if (el.value !== text) {
        // A new document (a rebuilt session's) never overwrites the focused control: its text is sent again.
        if (whole && el.value && el === document.activeElement) return el.dispatchEvent(new Event('input', { bubbles: true }));
        el.value = text;
      }
      // The value the page keeps for a rebuild (the last one an event of the control sent) follows.
      const sent = [K.ON.input, K.ON.change].map((on) => el.getAttribute(on)).filter((event) => !b.list && hasOwn(b.st.kept, event));
      for (const event of sent) b.st.kept[event] = el.type === 'checkbox' ? el.checked : el.value;
      if (sent.length) keep();
    }
  }

  function renderList(b, rows, whole) {
    const { st, el } = b;
    const path = b.path.join('.');
    if (!Array.isArray(rows)) {
      if (rows !== null) report(st, `list "${path}" is not an array`);
      rows = [];
    }
    rows = rows.filter((row) => row?.[K.ID] != null || report(st, `list "${path}" has a row with no ${K.ID}`));
    const ids = rows.map((row) => row[K.ID]);
    let plan;
    try {
      plan = planList(b.keys, ids);
    } catch (error) {
      return report(st, `list "${path}": ${error.message}`);
    }
    for (const id of plan.remove) {
      b.rows.get(id).node.remove();
      b.rows.delete(id);
    }
    rows.forEach((data, i) => {
      let row = b.rows.get(ids[i]);
      if (!row) {
        const node = b.template.content.cloneNode(true).firstElementChild;
        rowIds.set(node, ids[i]);
        b.rows.set(ids[i], (row = { node, binds: bindTree(node, st, path) }));
      }
      if (row.data !== data) render(st, row.binds, (row.data = data), null, whole);
    });
    // Moving a node may blur it (where moveBefore is missing): give focus and selection back.
    const focused = document.activeElement;
    const selection = focused && [focused.selectionStart, focused.selectionEnd];
    for (const [id, before, fresh] of plan.steps) {
      const node = b.rows.get(id).node;
      const next = before === null ? null : b.rows.get(before).node;
      if (!fresh && el.moveBefore && el.isConnected) el.moveBefore(node, next);
      else el.insertBefore(node, next);
    }
    if (focused && focused !== document.activeElement && focused.isConnected) {
      focused.focus({ preventScroll: true });
      try { focused.setSelectionRange(...selection); } catch {} // (not every control has a selection)
    }
    b.keys = ids;
  }

  /** Applies the latest held value of each control whose events are all acknowledged now, in a
   * stage whose document is current (a rebuilt stage's comes with its mount); forgets removed ones. */
  function release() {
    for (const b of held) {
      if (!b.el.isConnected) held.delete(b);
      else if (!b.st.stale && !isHeld(b.el)) apply(b, b.hold);
    }
  }

  /**
   * Enables the submit buttons of `form` that a binding disabled, while its controls have input
   * the server has not seen: what was typed may make it valid, and a submit sent after that input
   * lets the server decide. The binding's value comes back once the input is acknowledged.
   */
  function unlock(form) {
    for (const el of form.elements) {
      const b = locks.get(el);
      if (!b || held.has(b) || !el.disabled || !isHeld(el)) continue;
      el.removeAttribute('disabled');
      Object.assign(b, { hold: b.raw, last: undefined });
      held.add(b);
    }
  }

  /** The id of the innermost list row holding `el` in its own stage (not a row a component sits in), or undefined. */
  function rowId(el) {
    for (; el && el.className !== K.C_STAGE; el = el.parentNode) if (rowIds.has(el)) return rowIds.get(el);
  }

  return { parseSlot, parseBinding, readPath, truthy, init, bindTree, render, write, release, unlock, rowId };
});
