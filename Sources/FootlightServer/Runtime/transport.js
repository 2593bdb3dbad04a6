/*
 * Footlight browser runtime: the WebSocket (Protocol.md). Takes the first content a page's answer
 * carries as if received (not in a tab with a session of its own: a reload, a copy), joins or
 * resumes, hands state messages to the runtime in seq order, acknowledges them, pings, and
 * reconnects while the page is open (at once when the browser is back online or the tab shown
 * again), with session.js's bookkeeping. What the page shows (keeping.js) goes with every resume
 * and start over, so that a server that lost the session rebuilds it; the token and unacknowledged
 * events are kept across a reload (storage.js); the banner (banner.js) says when not connected. A
 * server of another protocol version than this runtime's is refused: the page stops and asks for a
 * reload, which brings the server's own runtime. Needs constants.js, session.js, storage.js,
 * banner.js and keeping.js; in the page its exports are the global FootlightTransport. What it
 * calls back (the runtime's apply and reset, events.js's consumed) is handed to `connect` at boot.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./constants.js'), require('./session.js'), require('./storage.js'), require('./banner.js'), require('./keeping.js'));
  } else {
    root.FootlightTransport = factory(root.FootlightConstants, root.FootlightSession, root.FootlightStorage, root.FootlightBanner, root.FootlightKeeping);
  }
})(this, (K, bookkeeping, storage, banner, keeping) => {
  'use strict';

  const { backoff, Session } = bookkeeping;

  let hooks; // {apply(message) → false if it failed, reset(), rename(moved), forget(), flush(), notSent(numbers), consumed(number, renumbered)}
  let session = new Session(null);
  let ws = null;
  let joined = false;
  let tries = 0; // reconnects since the last `joined`
  let retry = null; // the timer of the next reconnect
  let dialAgain = false; // back online while a dial was under way: if it fails, redial at once
  let broken = false; // patches kept failing, or a server of another version: the page stops and asks for a reload
  let missed = 0; // pings unanswered
  let pinger;
  let ackTimer = null;
  let dirty = false; // documents were dropped to resynchronise: the next `joined` resets stages
  let note = ''; // what the banner says once joined, until the next event: events lost, or a start over
  let resyncs = 0;
  let copied = false; // a duplicated tab: its first join rebuilds a session of its own from the copied page

  /** Starts the connection; `runtimeHooks` receives state messages in order. */
  function connect(runtimeHooks) {
    hooks = runtimeHooks;
    const kept = storage.open();
    copied = kept.copied;
    keeping.restore(kept.page);
    session = new Session(kept.token, kept.saved);
    if (!kept.token && !copied) JSON.parse(document.getElementById('footlight-first')?.text || '[]').map(receive);
    banner.show('', joined);
    // Back online, or the tab shown again: reconnect now rather than when the backoff says.
    addEventListener('online', redial);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && redial());
    dial();
  }

  function redial() {
    if (broken) return;
    if (retry === null) {
      dialAgain = ws !== null && !joined;
      return;
    }
    clearTimeout(retry);
    retry = null;
    dial();
  }

  // Keeps the unacknowledged events for a reload of this tab (and forgets them once consumed).
  const save = () => storage.saveEvents(session.saved());

  function dial() {
    missed = 0;
    // The page's own host, so the address is always one the constructor takes.
    const socket = (ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${K.WS_PATH}`, K.SUBPROTOCOL));
    socket.onopen = () => {
      // Input still waiting in a debounce is queued first (not sent: not joined yet) and its value
      // kept with its stage, so that the restore carries it to a server that lost the session.
      hooks.flush();
      // What the page shows goes with every resume (and a copied tab's first join): a server that
      // lost the session (a restart, another node) rebuilds it from that.
      send(session.join(location.pathname + location.search, session.token || copied ? keeping.shown() : null));
      pinger = setInterval(ping, K.PING_MS);
    };
    socket.onmessage = (event) => {
      missed = 0;
      receive(JSON.parse(event.data));
    };
    socket.onclose = (event) => lost(socket, event.code);
  }

  function send(message) {
    if (ws?.readyState === 1) ws.send(JSON.stringify(message));
  }

  function ping() {
    if (missed >= K.MISSED_PONGS) return drop(); // a dead socket: reconnect
    missed++;
    send({ [K.T]: K.PING });
  }

  // Gives up on the socket now (a dead one may take long to report its close).
  function drop() {
    ws.close();
    lost(ws, 0);
  }

  function lost(socket, code) {
    if (socket !== ws) return;
    ws = null;
    // Events are written only while joined: every one numbered so far may have been.
    if (joined) session.sent = session.next - 1;
    joined = false;
    clearInterval(pinger);
    flushAck(); // only stops its timer: not joined, nothing is sent
    if (code === K.CLOSE_TAKEN_OVER) return banner.show('TEXT_TAKEN', joined, true);
    if (code === K.CLOSE_ENDED) {
      storage.saveToken(null);
      return banner.show('TEXT_ENDED', joined, true);
    }
    // The app ended the session (a sign-out in another tab): a new one, here, now, rebuilt from the page.
    if (code === K.CLOSE_START_OVER) {
      copied = true;
      note = 'TEXT_STARTED_OVER';
      session = new Session(null);
      storage.saveToken(null);
      save(); // none
      tries = 0;
      return dial();
    }
    if (broken) return banner.show('TEXT_BROKEN', joined, true);
    banner.show('TEXT_RECONNECTING', joined);
    // After `bye` the server closes with 1001: it is restarting, do not rush it.
    if (code === K.CLOSE_GOING_AWAY) tries = Math.max(tries, K.BYE_TRIES);
    if (dialAgain && code !== K.CLOSE_GOING_AWAY) {
      dialAgain = false;
      return dial();
    }
    // No last try: the server keeps a dropped session for minutes, and the network may come back.
    retry = setTimeout(() => {
      retry = null;
      dial();
    }, backoff(tries++));
  }

  function receive(message) {
    const type = message[K.T];
    if (type === K.JOINED) {
      if (message[K.V] !== K.VERSION) return refuse(message[K.V]);
      const newSession = message[K.RESUMED] === false;
      joined = ws?.readyState === 1; // not for first content, which comes before the socket is open
      dialAgain = false;
      tries = 0;
      copied = false;
      // A resume the server could not honour (a restart, another node): it rebuilt the page, and
      // the events it never acknowledged are sent again only where that is safe; the others (one
      // may have been applied) are marked at their controls, and the banner says so.
      const again = session.joined(message);
      note = session.lost.length ? 'TEXT_NOT_SENT' : newSession && note === 'TEXT_STARTED_OVER' ? note : '';
      storage.saveToken(session.token);
      save();
      if (session.moved.size) {
        hooks.rename(session.moved);
        keeping.renamed(session.moved);
      } else if (newSession) {
        // Not rebuilt (a start over, a server that does not rebuild): nothing kept is the new session's.
        keeping.forget();
        hooks.forget();
      }
      if (message[K.SNAPSHOT] === true || newSession || dirty) hooks.reset(message[K.MOUNTS] || 0);
      dirty = false;
      if (session.lost.length) hooks.notSent(session.lost);
      // The controls of events sent again stay busy, waiting for their new numbers.
      hooks.consumed(newSession ? Infinity : message[K.EVENTS] || 0, session.renumbered);
      banner.show(note, joined);
      again.forEach(send);
    } else if (type === K.ACK) {
      consume(message[K.N]);
    } else if (type === K.ERROR) {
      // With `n` it refuses that event (logged too, if still queued) and consumes it.
      const number = message[K.N];
      const event = session.queue.find((queued) => queued[K.N] === number) || '';
      const which = number == null ? '' : ` (event ${number})`;
      console.error(`footlight: server error ${message[K.CODE]}${which}: ${message[K.MESSAGE]}`, event);
      if (number != null) consume(number);
    } else {
      // A state message (pong, bye and others without seq are ignored): skip one applied already.
      const seq = message[K.SEQ];
      if (!(seq > session.lastSeq)) return;
      if (!hooks.apply(message)) return resync();
      if (session.applied(seq)) flushAck();
      else if (ackTimer === null) ackTimer = setTimeout(flushAck, K.ACK_MS);
      if (message[K.ACK] != null) consume(message[K.ACK]);
    }
  }

  // A server of another protocol version (`version`) than this runtime's: nothing it sends is
  // applied. Said in the console and in the server's log; the page stops and asks for a reload,
  // which loads the runtime the server serves.
  function refuse(version) {
    const text = `footlight: this page's runtime speaks protocol v${K.VERSION}, the server v${version ?? '?'}: reload the page to load the server's runtime`;
    console.error(text);
    send({ [K.T]: K.REPORT, [K.STAGE]: '', [K.MESSAGE]: text });
    broken = true;
    drop();
  }

  function consume(number) {
    session.consume(number);
    save();
    hooks.consumed(number);
  }

  function flushAck() {
    clearTimeout(ackTimer);
    ackTimer = null;
    const ack = joined && session.ack();
    if (ack) send(ack);
  }

  // A patch did not apply: drop everything and resume from seq 0, so the server sends it all again.
  function resync() {
    session.lastSeq = 0;
    dirty = true;
    if (++resyncs > K.MAX_RESYNCS) broken = true;
    drop();
  }

  /**
   * Numbers, queues and (when joined) sends an event; returns its number, or 0 when it is refused
   * as larger than the server reads. `again`, for an event safe to send again to a rebuilt
   * session (a value kept with its stage, keeping.js): the stage and name it goes to then.
   */
  function sendEvent(stage, name, value, again) {
    const message = session.event(stage, name, value, again);
    if (!message) return 0;
    if (note && joined) banner.show((note = ''), joined);
    save();
    if (joined) send(message);
    return message[K.N];
  }

  /** Sends a binding error to the server's log. */
  function sendReport(stage, message) {
    if (joined) send({ [K.T]: K.REPORT, [K.STAGE]: stage, [K.MESSAGE]: message });
  }

  /** The connection's state, for window.footlight.state(). */
  const connection = () => ({ connected: ws?.readyState === 1, joined, token: session.token, lastSeq: session.lastSeq, unacknowledged: session.queue.length });

  return { connect, sendEvent, sendReport, connection };
});
