/*
 * The page around the kiosk's stages follows the language of the page shown: a Footlight hook
 * (Bindings.md, "JavaScript hooks") on a hidden element of each full page,
 * <span hidden data-hook="site-text:site">, whose value is that page's share of the site's texts
 * ({lang, name, tagline, skip}: KioskStrings.sitePage, in the session's language). It sets the
 * document's language (what a screen reader reads the page in), the header's name and tagline,
 * and the skip link. Plain JavaScript, loaded after the runtime (window.footlight).
 *
 * The texts last shown are kept in localStorage and shown again as the page loads: on a slow
 * network the first page arrives a few round trips after the header is painted, and a reload
 * would otherwise show the header in English until then. A first visit has none kept: the
 * browser's languages (what it sends as Accept-Language, which the server follows too) pick the
 * texts of the page's <script type="application/json" id="site-texts"> ({de: {lang, name, …}};
 * English is the page's own).
 */
'use strict';

(() => {
  const KEPT = 'footlight-site-text';

  function show(texts) {
    document.documentElement.lang = texts.lang;
    for (const el of document.querySelectorAll('[data-site-text]')) {
      const text = texts[el.dataset.siteText];
      if (typeof text === 'string') el.textContent = text;
    }
  }

  function apply(h) {
    const texts = h.value;
    if (typeof texts?.lang !== 'string') return;
    show(texts);
    try {
      localStorage.setItem(KEPT, JSON.stringify(texts));
    } catch {} // storage full or refused: the next load waits for the page, as without it
  }

  /** The site's texts in the first of the browser's languages the kiosk speaks, or null for English. */
  function browsers() {
    const known = JSON.parse(document.getElementById('site-texts')?.textContent || '{}');
    for (const tag of navigator.languages || [navigator.language]) {
      const language = String(tag).split('-')[0].toLowerCase();
      if (language === 'en') return null;
      if (known[language]) return known[language];
    }
    return null;
  }

  try {
    const kept = JSON.parse(localStorage.getItem(KEPT)) || browsers();
    if (typeof kept?.lang === 'string') show(kept);
  } catch {} // not JSON: the page's own texts stay until the first page

  window.footlight.hook('site-text', { mounted: apply, updated: apply });
})();
