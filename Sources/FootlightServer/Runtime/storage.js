/*
 * Footlight browser runtime: what a tab keeps in sessionStorage across a reload (Protocol.md,
 * "Rebuilding a session"): the session's token, its unacknowledged events, the address the page
 * was left at, what the page showed and the stages' language. From those it tells, once at boot,
 * a reload from a duplicated tab ("Duplicate tab" copies sessionStorage) and from a link typed
 * into the tab. Storage that throws (disabled, full) keeps nothing: the page works without it.
 * Needs constants.js only; in the page its exports are the global FootlightStorage.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'));
  else root.FootlightStorage = factory(root.FootlightConstants);
})(this, (K) => {
  'use strict';

  let page = []; // what the page shows, as last kept: kept again with the address it is left at

  const store = (key, value) => {
    try {
      if (value == null) sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, value);
    } catch {}
  };
  const load = (key) => {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const here = () => location.pathname + location.search;

  /**
   * Reads what an earlier page of this tab kept, and from now on keeps the address the page is
   * left at. Returns {copied: a duplicate of a live tab, token, saved: its events (see
   * Session.saved), page: what it showed at this address ([] if none)}; a copy, or a tab that
   * follows a link typed into it, gets no token and no events: a session of its own.
   */
  function open() {
    // The address is kept when the page is left and dropped while it shows, so a tab that finds a
    // token and no address is a copy of a live tab: it rebuilds a session of its own from the
    // copied page instead of taking the original's over.
    const left = load(K.STORE_URL);
    store(K.STORE_URL, null);
    const copied = left === null && load(K.STORE_TOKEN) !== null;
    // A link typed or pasted into this tab opens what it names, in a session of its own: the
    // tab's session goes on only after a reload, back or forward, or a load of the same address.
    const navigation = globalThis.performance?.getEntriesByType?.('navigation')[0];
    const continues = left === null || left === here() || navigation?.type !== 'navigate';
    if (copied || !continues) {
      store(K.STORE_TOKEN, null);
      store(K.STORE_EVENTS, null);
    }
    addEventListener('pagehide', () => {
      store(K.STORE_URL, here());
      savePage(page);
    });
    addEventListener('pageshow', (event) => event.persisted && store(K.STORE_URL, null));
    let saved = null;
    try {
      saved = JSON.parse(load(K.STORE_EVENTS));
      // What the page showed, if it showed it at this address (a link opened in a new tab may
      // copy sessionStorage too: its page is another).
      const kept = JSON.parse(load(K.STORE_PAGE));
      if (continues && kept?.at === here() && Array.isArray(kept.stages)) page = kept.stages;
    } catch {}
    return { copied, token: load(K.STORE_TOKEN), saved, page };
  }

  /** Keeps the session's token (null: forgets it). */
  const saveToken = (token) => store(K.STORE_TOKEN, token);

  /** Keeps the unacknowledged events (`Session.saved()`; null: none) for a reload of this tab. */
  const saveEvents = (saved) => store(K.STORE_EVENTS, saved && JSON.stringify(saved));

  /** Keeps what the page shows ([{id, template, place, url, values}]) at the address it shows. */
  function savePage(stages) {
    page = stages;
    store(K.STORE_PAGE, JSON.stringify({ at: here(), stages }));
  }

  /** The stages' language, kept as `lang` when given, for a reload that shows no stage yet. */
  function language() {
    const lang = K.lang(document, load(K.STORE_LANG));
    store(K.STORE_LANG, lang);
    return lang;
  }

  return { open, saveToken, saveEvents, savePage, language };
});
