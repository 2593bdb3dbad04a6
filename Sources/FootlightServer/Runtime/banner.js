/*
 * Footlight browser runtime: the banner that says when the page is not connected (the element
 * #footlight-banner, a live region) and the class on <html> while it is not. Its texts are the
 * runtime's (K.text), in the stages' language, kept for a reload that cannot reach the server.
 * Needs constants.js and storage.js; in the page its exports are the global FootlightBanner.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./storage.js'));
  else root.FootlightBanner = factory(root.FootlightConstants, root.FootlightStorage);
})(this, (K, storage) => {
  'use strict';

  /**
   * Says why the page is not connected (the text `key`, a TEXT_ name; empty: it is), and marks
   * <html> while it is not `joined`; or, joined, says what the page must tell. `reload` adds a
   * link that reloads the page.
   */
  function show(key, joined, reload) {
    document.documentElement.classList.toggle(K.C_OFFLINE, !!key && !joined);
    const el = document.getElementById(K.BANNER);
    if (!el) return;
    const lang = storage.language();
    el.hidden = false; // an empty live region stays in the page, so screen readers hear it change
    el.lang = lang; // the banner sits outside the stages: it says which language it speaks
    el.textContent = key && K.text(key, lang);
    if (reload) el.append(' ', Object.assign(document.createElement('a'), { href: '', textContent: K.text('TEXT_RELOAD', lang) }));
  }

  return { show };
});
