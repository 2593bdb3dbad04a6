/*
 * Footlight browser runtime: the session bookkeeping of a protocol v1 client (Protocol.md), pure
 * and tested under Node: reconnect backoff, and Session (token, last applied seq, coalesced acks,
 * event numbers, the unacknowledged queue) as Sources/FootlightTesting/ClientMirror.swift keeps
 * it. Needs constants.js only; in the page its exports are the global FootlightSession, which
 * transport.js drives over the socket.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'));
  else root.FootlightSession = factory(root.FootlightConstants);
})(this, (K) => {
  'use strict';

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

  return { backoff, Session };
});
