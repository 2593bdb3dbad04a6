/*
 * The page around the kiosk's stages follows the language of the page shown: a Footlight hook
 * (Bindings.md, "JavaScript hooks") on a hidden element of each full page,
 * <span hidden data-hook="site-text:site">, whose value is that page's share of the site's texts
 * ({lang, name, tagline, skip}: KioskStrings.sitePage, in the session's language). It sets the
 * document's language (what a screen reader reads the page in), the header's name and tagline,
 * and the skip link. Plain JavaScript, loaded after the runtime (window.footlight).
 */
'use strict';

(() => {
  function apply(h) {
    const texts = h.value;
    if (!texts?.lang) return;
    document.documentElement.lang = texts.lang;
    for (const el of document.querySelectorAll('[data-site-text]')) {
      const text = texts[el.dataset.siteText];
      if (typeof text === 'string') el.textContent = text;
    }
  }

  window.footlight.hook('site-text', { mounted: apply, updated: apply });
})();
