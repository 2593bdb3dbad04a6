/*
 * Footlight browser runtime: the WebSocket (Protocol.md).
 * Pure part (tested under Node): reconnect backoff, and Session, the bookkeeping of a protocol v1
 * client (token, last applied seq, coalesced acks, event numbers, the unacknowledged queue)
 * as Sources/FootlightTesting/ClientMirror.swift keeps it.
 * I/O part: join or resume, hand state messages to the runtime in seq order, ping, reconnect
 * (for as long as the page is open: at once when the browser comes back online or the tab is
 * shown again), keep the unacknowledged events and what the page shows across a reload
 * (sessionStorage) so that a server that lost the session rebuilds it, tell a duplicated tab from
 * a reload, and the banner saying when the page is not connected.
 * Needs constants.js only; in the page its exports are the global FootlightTransport. What it
 * calls back (the runtime's apply and reset, events.js's consumed) is handed to `connect` at boot.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'));
  else root.FootlightTransport = factory(root.FootlightConstants);
})(this, (K) => {
  'use strict';

  // ---- Pure ----------------------------------------------------------------------------------

  /** Full-jitter backoff: a delay in [0, min(cap, base · 2^attempt)) ms for retry `attempt` (0-based). */
  const backoff = (attempt, random = Math.random) =>
    random() * Math.min(K.BACKOFF_CAP, K.BACKOFF_BASE * 2 ** attempt);

  /** Whether `text` takes at most `limit` bytes in UTF-8 (at most 3 per UTF-16 unit: counted only near it). */
  const fits = (text, limit) => text.length * 3 <= limit || new TextEncoder().encode(text).length <= limit;

  /**
   * What a client knows of its session; feed it messages, it says what to send. `saved` is what
   * `saved()` returned on an earlier page of this tab (its events not yet consumed).
   */
  class Session {
    constructor(token, saved) {
      this.token = token || null;
      this.lastSeq = this.acked = 0; // the highest seq applied, and the highest the server knows is applied
      this.next = 1; // the next event's number
      this.queue = []; // events sent or waiting, not yet consumed, in order
      this.again = {}; // event number → [stage id, name]: where it goes again to a rebuilt session
      this.limit = K.MAX_MESSAGE_BYTES; // the largest message the server reads
      this.named = null; // the ids of the stages the last join's restore named, in order
      this.moved = new Map(); // after a rebuild: each named stage's old id → its new id
      this.lost = []; // after a new session: the numbers of the old one's events not sent again
      if (this.token && Array.isArray(saved?.queue) && saved.next > 0) {
        this.queue = saved.queue.filter((event) => event?.[K.T] === K.EVENT && event[K.N] < saved.next);
        this.again = { ...saved.again };
        this.next = saved.next;
      }
      // The highest event number that may have been written to a socket: one numbered after it
      // never was. The I/O part sets it when a joined socket is lost, before the next `joined`
      // reads it (a rebuild's new numbers are written only once joined). Those kept across a
      // reload may have been.
      this.sent = this.next - 1;
    }

    /** The events and numbering to keep across a reload (JSON-ready), or null when there are none. */
    saved() {
      return this.queue.length ? { next: this.next, queue: this.queue, again: this.again } : null;
    }

    /**
     * The join message: a resume when a token is known. Counts `lastSeq` as acknowledged. With
     * `stages` (what the page shows: [{id, template, place, url, values}]) it carries `restore`, for a
     * server that no longer has the session, within the server's limits (at most 16 stages, 32
     * values each, URLs of 2 KB); without the kept values if they would make it larger than the
     * server reads, and without it if even that would.
     */
    join(path, stages) {
      // An address longer than the server reads would have every join refused: the root instead.
      const message = { [K.T]: K.JOIN, [K.V]: K.VERSION, [K.PATH]: fits(path, K.MAX_URL_BYTES) ? path : '/' };
      if (this.token) Object.assign(message, { [K.TOKEN]: this.token, [K.SEQ]: this.lastSeq });
      this.acked = this.lastSeq;
      this.named = null;
      if (stages?.length && stages.length <= K.MAX_RESTORE_STAGES) {
        const restore = stages.map(({ id, ...stage }) => {
          if (!fits(stage[K.URL] || '', K.MAX_URL_BYTES)) delete stage[K.URL];
          const values = Object.entries(stage[K.VALUES] || {});
          if (values.length > K.MAX_RESTORE_VALUES) stage[K.VALUES] = Object.fromEntries(values.slice(-K.MAX_RESTORE_VALUES));
          return stage;
        });
        // With the kept values, else without them: the first that fits.
        const fitting = [restore, restore.map(({ [K.VALUES]: values, ...stage }) => stage)].find((attempt) =>
          fits(JSON.stringify({ ...message, [K.RESTORE]: attempt }), this.limit),
        );
        if (fitting) {
          message[K.RESTORE] = fitting;
          this.named = stages.map((stage) => stage.id);
        }
      }
      return message;
    }

    /**
     * Numbers a new event and queues it until consumed; returns it, or null when it would be larger
     * than the server reads (it would close the socket and be sent again after every resume).
     * `again` says where it goes if its session is lost before it is consumed (see `joined`).
     */
    event(stage, name, value, again) {
      const message = { [K.T]: K.EVENT, [K.N]: this.next, [K.STAGE]: stage, [K.NAME]: name };
      if (value !== undefined) message[K.VALUE] = value;
      if (!fits(JSON.stringify(message), this.limit)) return null;
      if (again) this.again[this.next] = again;
      this.next++;
      this.queue.push(message);
      return message;
    }

    /**
     * Takes `joined`; returns the events to send again, in order. A new session numbers events
     * from 1. Rebuilt from the join's restore (`rebuilt`), it gets again, renumbered and addressed
     * to the new stage ids, the unconsumed events declared safe to repeat or recoverable (a value
     * sets state: sending it twice is harmless, and the restore may hold an older one), each where
     * `again` says: a component's value goes to the stage it is placed in, named by the hosts down
     * to it ("form/email"), as its restore does. Every other unconsumed event of the old session
     * is not sent again (one may have been applied): their numbers are in `lost`; but one never
     * written to a socket (input while the page was reconnecting) cannot have been applied: it
     * goes, as it is, to its stage's new id.
     */
    joined(message) {
      const consumed = message[K.EVENTS] || 0;
      this.token = message[K.TOKEN];
      if (message[K.MAX] > 0) this.limit = message[K.MAX];
      this.moved = new Map();
      this.renumbered = {}; // after a rebuild: each event sent again, its old number → its new one
      this.lost = [];
      if (message[K.RESUMED] === false) {
        const rebuilt = message[K.REBUILT];
        if (Array.isArray(rebuilt)) this.named?.forEach((old, i) => rebuilt[i] && this.moved.set(old, rebuilt[i]));
        const { queue, again } = this;
        this.lastSeq = this.acked = 0;
        this.queue = [];
        this.again = {};
        this.next = 1;
        for (const event of queue) {
          // One never written to a socket (numbered after `sent`) goes where it was going; it is
          // safe to repeat after this only if `again` said so.
          const to = again[event[K.N]];
          const [old, name] = to || [event[K.STAGE], event[K.NAME]];
          const stage = (to || event[K.N] > this.sent) && this.moved.get(old);
          // Null also when the new server reads less than the event: then it is lost too.
          const resent = stage && this.event(stage, name, event[K.VALUE], to && [stage, name]);
          if (resent) this.renumbered[event[K.N]] = resent[K.N];
          // A back whose stage did not come back has happened: nothing to report.
          else if (event[K.NAME] !== K.BACK) this.lost.push(event[K.N]);
        }
      }
      this.consume(consumed);
      // A reloaded page resumes with no memory of its numbers: go on after the server's.
      if (this.next <= consumed) this.next = consumed + 1;
      return this.queue.slice();
    }

    /** Records `seq` applied; true when an ack is due now rather than after a while. */
    applied(seq) {
      this.lastSeq = seq;
      return seq - this.acked >= K.ACK_EVERY;
    }

    /** The ack message for everything applied, or null when the server knows it all. */
    ack() {
      if (this.lastSeq <= this.acked) return null;
      this.acked = this.lastSeq;
      return { [K.T]: K.ACK, [K.SEQ]: this.lastSeq };
    }

    /** Forgets the events up to `number`: the server consumed them. */
    consume(number) {
      this.queue = this.queue.filter((event) => event[K.N] > number);
      for (const n in this.again) if (n <= number) delete this.again[n];
    }
  }

  // ---- I/O -----------------------------------------------------------------------------------

  let hooks; // {apply(message) → false if it failed, reset(), rename(moved), forget(), flush(), notSent(numbers), consumed(number, renumbered)}
  let session = new Session(null);
  let ws = null;
  let joined = false;
  let tries = 0; // reconnects since the last `joined`
  let retry = null; // the timer of the next reconnect
  let dialAgain = false; // back online while a dial was under way: if it fails, redial at once
  let broken = false; // patches kept failing: the page stops and asks for a reload
  let missed = 0; // pings unanswered
  let pinger;
  let ackTimer = null;
  let dirty = false; // documents were dropped to resynchronise: the next `joined` resets stages
  let notSent = false; // the banner says unacknowledged events were lost, until the next event
  let resyncs = 0;
  let page = []; // what the page shows ([{id, template, place, url, values}]), as `keepPage` was last told
  let earlier = []; // what it showed before this load (a reload, a copied tab), with the ids of the last rebuild
  let copied = false; // a duplicated tab: its first join rebuilds a session of its own from the copied page

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

  /** Starts the connection; `runtimeHooks` receives state messages in order. */
  function connect(runtimeHooks) {
    hooks = runtimeHooks;
    // The address is kept when the page is left and dropped while it shows, so a tab that finds a
    // token and no address is a copy of a live tab ("Duplicate tab" copies sessionStorage): it
    // rebuilds a session of its own from the copied page instead of taking the original's over.
    const left = load(K.STORE_URL);
    store(K.STORE_URL, null);
    copied = left === null && load(K.STORE_TOKEN) !== null;
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
      keepPage(page);
    });
    addEventListener('pageshow', (event) => event.persisted && store(K.STORE_URL, null));
    let saved = null;
    try {
      saved = JSON.parse(load(K.STORE_EVENTS));
      // What the page showed, if it showed it at this address (a link opened in a new tab may
      // copy sessionStorage too: its page is another).
      const kept = JSON.parse(load(K.STORE_PAGE));
      if (continues && kept?.at === here() && Array.isArray(kept.stages)) earlier = page = kept.stages;
    } catch {}
    session = new Session(load(K.STORE_TOKEN), saved);
    banner('');
    // Back online, or the tab shown again: reconnect now rather than when the backoff says.
    addEventListener('online', redial);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && redial());
    dial();
  }

  const here = () => location.pathname + location.search;

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
  function save() {
    const saved = session.saved();
    store(K.STORE_EVENTS, saved && JSON.stringify(saved));
  }

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
      send(session.join(here(), session.token || copied ? page : null));
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
    if (code === K.CLOSE_TAKEN_OVER) return banner('TEXT_TAKEN', true);
    if (code === K.CLOSE_ENDED) {
      store(K.STORE_TOKEN, null);
      return banner('TEXT_ENDED', true);
    }
    // The app ended the session (a sign-out in another tab): a new one, here, now.
    if (code === K.CLOSE_START_OVER) {
      session = new Session(null);
      store(K.STORE_TOKEN, null);
      save(); // none
      tries = 0;
      return dial();
    }
    if (broken) return banner('TEXT_BROKEN', true);
    banner('TEXT_RECONNECTING');
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
      const newSession = message[K.RESUMED] === false;
      joined = true;
      dialAgain = false;
      tries = 0;
      copied = false;
      // A resume the server could not honour (a restart, another node): it rebuilt the page, and
      // the events it never acknowledged are sent again only where that is safe; the others (one
      // may have been applied) are marked at their controls, and the banner says so.
      const again = session.joined(message);
      notSent = session.lost.length > 0;
      store(K.STORE_TOKEN, session.token);
      save();
      if (session.moved.size) {
        hooks.rename(session.moved);
        earlier = page.map((stage) => ({ ...stage, id: session.moved.get(stage.id) ?? stage.id }));
      } else if (newSession) {
        // Not rebuilt (a start over, a server that does not rebuild): nothing kept is the new session's.
        earlier = [];
        hooks.forget();
      }
      if (message[K.SNAPSHOT] === true || newSession || dirty) hooks.reset(message[K.MOUNTS] || 0);
      dirty = false;
      if (notSent) hooks.notSent(session.lost);
      // The controls of events sent again stay busy, waiting for their new numbers.
      hooks.consumed(newSession ? Infinity : message[K.EVENTS] || 0, session.renumbered);
      banner(notSent ? 'TEXT_NOT_SENT' : '');
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

  // Says why the page is not connected (the text `key`; empty: it is), and marks <html> while it
  // is not; or, joined, says what the page must tell. In the stages' language, kept for a reload
  // that cannot reach the server (no stage is shown then).
  function banner(key, reload) {
    document.documentElement.classList.toggle(K.C_OFFLINE, !!key && !joined);
    const el = document.getElementById(K.BANNER);
    if (!el) return;
    const lang = K.lang(document, load(K.STORE_LANG));
    store(K.STORE_LANG, lang);
    el.hidden = false; // an empty live region stays in the page, so screen readers hear it change
    el.lang = lang; // the banner sits outside the stages: it says which language it speaks
    el.textContent = key && K.text(key, lang);
    if (reload) el.append(' ', Object.assign(document.createElement('a'), { href: '', textContent: K.text('TEXT_RELOAD', lang) }));
  }

  /**
   * Numbers, queues and (when joined) sends an event; returns its number, or 0 when it is refused
   * as larger than the server reads. `again`, for an event safe to send again to a rebuilt
   * session (a value kept with its stage, `keepPage`): the stage and name it goes to then.
   */
  function sendEvent(stage, name, value, again) {
    const message = session.event(stage, name, value, again);
    if (!message) return 0;
    if (notSent && joined) {
      notSent = false;
      banner('');
    }
    save();
    if (joined) send(message);
    return message[K.N];
  }

  /** Keeps what the page shows ([{id, template, place, url, values}], page order) for a rebuild, across a reload too. */
  function keepPage(stages) {
    page = stages;
    store(K.STORE_PAGE, JSON.stringify({ at: here(), stages }));
  }

  /** The values kept for stage `id` of `template` before this page was loaded (a reload), or {}. */
  function keptValues(id, template) {
    const stage = earlier.find((kept) => kept.id === id && kept[K.TEMPLATE] === template);
    return { ...stage?.[K.VALUES] };
  }

  /** Sends a binding error to the server's log. */
  function sendReport(stage, message) {
    if (joined) send({ [K.T]: K.REPORT, [K.STAGE]: stage, [K.MESSAGE]: message });
  }

  /** The connection's state, for window.footlight.state(). */
  function connection() {
    return {
      connected: ws?.readyState === 1,
      joined,
      token: session.token,
      lastSeq: session.lastSeq,
      unacknowledged: session.queue.length,
    };
  }

  return { backoff, Session, connect, sendEvent, keepPage, keptValues, sendReport, connection };
});
