/*
 * Footlight browser runtime: RFC 6901 JSON Pointers, pure (no DOM), with the same rules and error
 * messages as the Swift engine's JSONPointer (FootlightJSON): parsing, formatting, and reading an
 * array index. Needs nothing; in the page its exports are the global FootlightPointer, read by
 * patch.js.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.FootlightPointer = factory();
})(this, () => {
  'use strict';

  /**
   * Parses an RFC 6901 JSON Pointer into unescaped tokens: "/a~1b/m~0n" → ["a/b", "m~n"], "" → [].
   * @param {string} text
   * @returns {string[]}
   * @throws {SyntaxError} when a non-empty pointer lacks its leading "/" or has "~" not followed by 0 or 1.
   */
  function parsePointer(text) {
    if (text === '') return [];
    const invalid = (reason) => new SyntaxError(`invalid JSON pointer "${text}": ${reason}`);
    if (typeof text !== 'string' || text[0] !== '/') throw invalid('a non-empty pointer must start with "/"');
    return text.slice(1).split('/').map((raw) => {
      const bad = /~(?![01])/.exec(raw);
      if (bad && bad.index === raw.length - 1) throw invalid('"~" at the end of a token');
      if (bad) throw invalid('"~" must be followed by "0" or "1"');
      return raw.replace(/~1/g, '/').replace(/~0/g, '~');
    });
  }

  /**
   * Formats unescaped tokens as a JSON Pointer: ["a/b", "m~n"] → "/a~1b/m~0n", [] → "".
   * @param {Array<string|number>} tokens
   * @returns {string}
   */
  function formatPointer(tokens) {
    return tokens.map((token) => '/' + String(token).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
  }

  /**
   * The index that `token` names in an array of `count` elements (RFC 6901 §4: decimal digits
   * without a leading zero; "-", past the end, only with `allowEnd`, for add), or -1 if none.
   */
  function arrayIndex(token, count, allowEnd) {
    const index = token === '-' ? count : /^(0|[1-9][0-9]{0,17})$/.test(token) ? Number(token) : -1;
    return index >= 0 && index <= (allowEnd ? count : count - 1) ? index : -1;
  }

  return { parsePointer, formatPointer, arrayIndex };
});
