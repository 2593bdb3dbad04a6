/*
 * Footlight browser runtime: pure JSON Patch logic (no DOM).
 *
 * Applies the RFC 6902 patches the server sends to the page's view document with the same
 * semantics and error messages as the Swift engine (FootlightJSON); both sides apply the
 * fixtures in Tests/Fixtures/patches, so they cannot drift apart.
 * - applyPatch never mutates its input: it copies only the containers on each operation's
 *   path and shares every untouched subtree with the old document.
 * - A patch is all or nothing: a failure throws PatchError and the caller keeps the old document.
 * - Object keys are plain data: members are read with hasOwnProperty and written with
 *   defineProperty, so "__proto__" or "constructor" can never reach Object.prototype.
 * Needs pointer.js (RFC 6901); in the page its exports are the global FootlightPatch, read by
 * runtime.js.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./pointer.js'));
  else root.FootlightPatch = factory(root.FootlightPointer);
})(this, (pointer) => {
  'use strict';

  const { parsePointer, formatPointer, arrayIndex } = pointer;

  const { hasOwn } = Object;
  const { isArray } = Array;
  const kindName = (value) => (value === null ? 'null' : isArray(value) ? 'array' : typeof value);
  const isObject = (value) => kindName(value) === 'object';
  const define = (object, key, value) =>
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  const setChild = (node, key, value) => (isArray(node) ? (node[key] = value) : define(node, key, value));

  /**
   * A patch that could not be read or applied. `kind` is malformed, invalidPointer, pathNotFound,
   * invalidTarget or testFailed (PatchError.Kind in Swift); `opIndex` is 0-based; `op`, `path` may be null.
   */
  class PatchError extends Error {
    constructor(kind, opIndex, op, path, reason) {
      const at = path == null ? '' : `${op == null ? '' : ' '}at "${path}"`;
      super(`patch operation ${opIndex}${op == null && !at ? '' : ` (${op ?? ''}${at})`}: ${reason}`);
      Object.assign(this, { name: 'PatchError', kind, opIndex, op, path, reason });
    }
  }

  // A failure inside one operation, before the operation's index is known.
  class Failure {
    constructor(kind, tokens, reason) {
      Object.assign(this, { kind, path: tokens ? formatPointer(tokens) : null, reason });
    }
  }
  const fail = (kind, tokens, reason) => new Failure(kind, tokens, reason);

  // JSON equality: objects by members in any order, arrays by elements in order (their keys are
  // their indices), numbers by value.
  function jsonEqual(a, b) {
    if (a === b) return true;
    if (kindName(a) !== kindName(b) || typeof a !== 'object') return false; // two nulls are ===
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }

  // The key of an existing child on the way to `tokens` (a number in arrays), or a failure.
  function childKey(node, token, tokens) {
    if (isArray(node)) {
      const index = arrayIndex(token, node.length, false);
      if (index >= 0) return index;
      throw fail('pathNotFound', tokens, `no element "${token}" in an array of ${node.length}`);
    }
    if (!isObject(node)) {
      throw fail('pathNotFound', tokens, `"${token}" is inside a ${kindName(node)}, which has no children`);
    }
    if (!hasOwn(node, token)) throw fail('pathNotFound', tokens, `no member "${token}"`);
    return token;
  }

  // The value at `tokens`, or a pathNotFound failure that says `missing`.
  function valueAt(document, tokens, missing) {
    try {
      return tokens.reduce((node, token) => node[childKey(node, token, tokens)], document);
    } catch {
      throw fail('pathNotFound', tokens, missing);
    }
  }

  // A patch's working state: the document so far and the containers this patch has copied. Only
  // those change in place; everything else is shared with the caller's document and never written.
  class Draft {
    constructor(document) {
      this.doc = document;
      this.owned = new Set();
    }
    writable(value) {
      if (value === null || typeof value !== 'object' || this.owned.has(value)) return value;
      const copy = isArray(value) ? value.slice() : { ...value }; // spread defines "__proto__", never sets it
      this.owned.add(copy);
      return copy;
    }
    // Makes the containers from the root down to the parent of `tokens` writable; returns that
    // parent and the last token.
    parentOf(tokens) {
      let node = (this.doc = this.writable(this.doc));
      for (const token of tokens.slice(0, -1)) {
        const key = childKey(node, token, tokens);
        setChild(node, key, this.writable(node[key]));
        node = node[key];
      }
      return [node, tokens.at(-1)];
    }
    add(tokens, value) {
      if (tokens.length === 0) return void (this.doc = value);
      const [parent, last] = this.parentOf(tokens);
      if (isObject(parent)) return void define(parent, last, value);
      if (!isArray(parent)) {
        throw fail('invalidTarget', tokens, `the parent is a ${kindName(parent)}, not an object or array`);
      }
      const index = arrayIndex(last, parent.length, true);
      if (index < 0) throw fail('invalidTarget', tokens, `"${last}" is not an index from 0 to ${parent.length} or "-"`);
      parent.splice(index, 0, value);
    }
    remove(tokens) {
      if (tokens.length === 0) throw fail('invalidTarget', tokens, 'the whole document cannot be removed');
      const [parent, last] = this.parentOf(tokens);
      if (isArray(parent)) parent.splice(childKey(parent, last, tokens), 1);
      else if (isObject(parent)) {
        if (!hasOwn(parent, last)) throw fail('pathNotFound', tokens, `no member "${last}" to remove`);
        delete parent[last];
      } else {
        throw fail('pathNotFound', tokens, `the parent is a ${kindName(parent)}, which has no children`);
      }
    }
    replace(tokens, value) {
      if (tokens.length === 0) return void (this.doc = value);
      const [parent, last] = this.parentOf(tokens);
      setChild(parent, childKey(parent, last, tokens), value);
    }
  }

  const operations = {
    add: (draft, op) => draft.add(op.path, op.value),
    remove: (draft, op) => draft.remove(op.path),
    replace: (draft, op) => draft.replace(op.path, op.value),
    move(draft, { from, path }) {
      const moved = valueAt(draft.doc, from, 'no value at "from"');
      if (formatPointer(from) === formatPointer(path)) return;
      if (path.length > from.length && from.every((token, i) => token === path[i])) {
        throw fail('invalidTarget', path, 'cannot move a value into one of its own children');
      }
      draft.remove(from);
      draft.add(path, moved);
    },
    copy(draft, { from, path }) {
      const copied = valueAt(draft.doc, from, 'no value at "from"');
      draft.owned.clear(); // the copy shares containers with its source, so none may change in place now
      draft.add(path, copied);
    },
    test(draft, { path, value }) {
      const actual = valueAt(draft.doc, path, 'no value at this path');
      if (!jsonEqual(actual, value)) throw fail('testFailed', path, 'the value differs from the one the test expects');
    },
  };

  // Reads one operation object, checking its members in the same order as the Swift engine.
  function readOperation(element) {
    if (!isObject(element)) {
      throw fail('malformed', null, `an operation must be an object, not ${kindName(element)}`);
    }
    const string = (member) => {
      if (!hasOwn(element, member)) throw fail('malformed', null, `missing "${member}"`);
      const text = element[member];
      if (typeof text !== 'string') {
        throw fail('malformed', null, `"${member}" must be a string, not ${kindName(text)}`);
      }
      return text;
    };
    const pointer = (member) => {
      const text = string(member);
      try {
        return parsePointer(text);
      } catch (error) {
        throw fail('invalidPointer', null, error.message);
      }
    };
    const name = string('op');
    const path = pointer('path');
    if (!hasOwn(operations, name)) throw fail('malformed', path, `unknown operation "${name}"`);
    if (name === 'move' || name === 'copy') return { name, path, from: pointer('from') };
    if (name !== 'remove' && !hasOwn(element, 'value')) throw fail('malformed', path, 'missing "value"');
    return { name, path, value: element.value };
  }

  // Runs `body` for operation `index`, turning a Failure into a PatchError that names the operation
  // `name` (null when it has none that is a string).
  function step(index, name, body) {
    try {
      return body();
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      throw new PatchError(error.kind, index, name, error.path, error.reason);
    }
  }

  /**
   * Applies an RFC 6902 patch, all or nothing.
   * @param {*} document A JSON value (as from JSON.parse); never modified.
   * @param {object[]} ops The operations, applied first to last.
   * @returns {*} The new document, sharing every untouched subtree with `document`.
   * @throws {PatchError} naming the first operation that is malformed or cannot apply.
   */
  function applyPatch(document, ops) {
    if (!isArray(ops)) {
      throw new PatchError('malformed', 0, null, null, `a patch must be an array, not ${kindName(ops)}`);
    }
    const nameOf = (op) => (typeof op?.op === 'string' && hasOwn(op, 'op') ? op.op : null);
    const parsed = ops.map((op, index) => step(index, nameOf(op), () => readOperation(op)));
    const draft = new Draft(document);
    parsed.forEach((op, index) => step(index, op.name, () => operations[op.name](draft, op)));
    return draft.doc;
  }

  /**
   * The top-level slots a valid patch changes: the first token of each written pointer (and of a
   * move's "from"), with "" for the whole document; `test` changes nothing. (A member named ""
   * also gives "", which only means "update everything".)
   * @param {object[]} ops
   * @returns {Set<string>}
   */
  function changedPaths(ops) {
    const slots = new Set();
    for (const op of ops) {
      if (op.op === 'test') continue;
      for (const text of op.op === 'move' ? [op.from, op.path] : [op.path]) slots.add(parsePointer(text)[0] ?? '');
    }
    return slots;
  }

  return { PatchError, applyPatch, changedPaths };
});
