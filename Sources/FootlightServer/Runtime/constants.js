/*
 * Footlight browser runtime: every name the runtime shares with the server or the page, once.
 * Wire names (Protocol.md), binding attributes (Bindings.md), ids, classes, texts and default
 * timings. Loaded first and needs nothing. Exports the constants object itself, which the other
 * files take as `K`; in the page it is the global FootlightConstants (each file sets one global of
 * its own and only reads the others'; runtime.js describes the wiring).
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.FootlightConstants = factory();
})(this, () => {
  'use strict';

  const K = {
    VERSION: 1,
    SUBPROTOCOL: 'footlight.v1',
    WS_PATH: '/ws',
    BACK: '@back', // the event the back button sends for the top stage (`@address`: Back or Forward
    // to another address of a stage, its value the address; runtime.js)
    CLOSE_GOING_AWAY: 1001,
    CLOSE_TAKEN_OVER: 4000,
    CLOSE_ENDED: 4001,
    CLOSE_START_OVER: 4002,
    // Page attributes: a template's name, a stage's instance id, the busy flag.
    A_TEMPLATE: 'data-stage',
    A_STAGE_ID: 'data-stage-id',
    A_BUSY: 'aria-busy',
    A_HOOK: 'data-hook', // an element's JavaScript hook: "name", or "name:slot" for its value
    A_COMPONENT: 'data-component', // the element a component is placed in, by its host's name
    A_INCLUDE: 'data-include', // an element a template replaces with another template's content
    BIND: {}, // output bindings by kind: BIND.text = 'data-text', …
    ON: {}, // event bindings by DOM event type: ON.click = 'data-on-click', …
    // Ids and classes.
    OUTLET: 'footlight-outlet',
    MODALS: 'footlight-modal',
    BANNER: 'footlight-banner',
    TEXTS: 'footlight-texts', // a page's own runtime texts by language (K.text)
    C_STAGE: 'footlight-stage',
    C_BUSY: 'footlight-busy',
    C_OFFLINE: 'footlight-disconnected', // on <html> while not joined
    C_REFUSED: 'footlight-refused', // on a control whose event the page would not send
    C_NOT_SENT: 'footlight-not-sent', // on a control whose event was lost with its session
    // Storage and history.
    STORE_TOKEN: 'footlight.token',
    STORE_EVENTS: 'footlight.events', // the unacknowledged events, kept across a reload
    STORE_URL: 'footlight.url', // the address the page showed when it was left (none while it shows)
    STORE_PAGE: 'footlight.page', // what the page shows, to rebuild a session the server lost
    STORE_LANG: 'footlight.lang', // the stages' language, for the banner of a reload that finds no server
    HISTORY_DEPTH: 'footlightDepth',
    // Texts, in English (K.text picks the page's own in its language).
    TEXT_RECONNECTING: 'Reconnecting…',
    TEXT_BROKEN: 'This page could not follow the server.',
    TEXT_TAKEN: 'Open in another tab.',
    TEXT_ENDED: 'Session ended.',
    TEXT_RELOAD: 'Reload',
    TEXT_TOO_LARGE: 'This is too long to send.',
    TEXT_NOT_SENT: 'Your last action may not have reached the server: check, and try again.',
    TEXT_STARTED_OVER: 'This page started over after a change in another tab.',
    // Timings (ms) and counts.
    ACK_MS: 100, // an applied seq is acknowledged at most this late…
    ACK_EVERY: 16, // …or as soon as this many are unacknowledged
    PING_MS: 25000,
    MISSED_PONGS: 2, // pings unanswered before the socket counts as dead
    BACKOFF_BASE: 250,
    BACKOFF_CAP: 5000,
    MAX_MESSAGE_BYTES: 65536, // the server's limit until its `joined` says otherwise (`max`)
    MAX_SUBMITS: 16, // a form's submits waiting for the server, past which one is refused at the form
    MAX_RESTORE_STAGES: 16, // what the server takes in a join's `restore` (Protocol.md)
    MAX_RESTORE_VALUES: 32, // …values per stage
    MAX_URL_BYTES: 2048, // …and bytes of a stage's URL
    BYE_TRIES: 3, // after `bye` or 1001 the first retry waits as if this many had failed
    MAX_RESYNCS: 5, // patches that fail to apply before the runtime stops and asks for a reload
    SWEEP_MS: 1000, // after a snapshot, stages not mounted again within this are removed
  };

  // Wire names, each its own value under its upper-case name (K.SEQ = 'seq'): message types;
  // message members (`id` names a list row, `key` a key press, `in` a component's parent); places;
  // event options. The server's table (Wire, Protocol/) holds the same names, and a Swift test
  // (WireConstantsTests) fails naming any that one side has and the other lacks.
  const wire =
    'join joined event report ack ping pong mount unmount open patch address error bye ' +
    't v token seq path n stage name value message resumed events snapshot mounts template doc place url ops code from id key ' +
    'root push modal debounce throttle commit blur single max restore rebuilt values keep repeat keys set ' +
    'run do at class text local attr hook in reason replace';
  for (const name of wire.split(' ')) K[name.toUpperCase()] = name;
  for (const kind of 'text attr class show hide value list'.split(' ')) K.BIND[kind] = `data-${kind}`;
  for (const type of 'click dblclick input change submit keydown keyup focus blur'.split(' ')) K.ON[type] = `data-on-${type}`;

  /**
   * The runtime's text `key` (a TEXT_ name) in `lang`, by default the language of the stages shown
   * (`K.lang`: the `lang` of the first element in the outlet that has one, else the one `kept` from
   * an earlier look, else the document's). A page in several languages
   * gives its own texts in a JSON script, `<script type="application/json" id="footlight-texts">
   * {"de": {"TEXT_RECONNECTING": "…"}}</script>`; the English text stands for any it lacks, for
   * unreadable JSON, and with no document (Node). `K.lang` is that language ('' when none says).
   */
  K.lang = (doc = globalThis.document, kept) =>
    doc?.querySelector(`#${K.OUTLET} [lang]`)?.lang || kept || doc?.documentElement?.lang || '';
  K.text = (key, lang = K.lang(), doc = globalThis.document) => {
    try {
      return JSON.parse(doc?.getElementById(K.TEXTS)?.textContent || '{}')[lang]?.[key] ?? K[key];
    } catch {
      return K[key];
    }
  };

  return K;
});
