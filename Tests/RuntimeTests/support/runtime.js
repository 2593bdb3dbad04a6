// Support for the runtime's Node tests: where the runtime's files are, and small helpers.
'use strict';

const path = require('node:path');

/** The runtime's folder: the framework's own (a resource of FootlightServer). */
const folder = path.resolve(__dirname, '..', '..', '..', 'Sources', 'FootlightServer', 'Runtime');
/** One of the runtime's files, loaded as under Node (`require`). */
const load = (name) => require(path.join(folder, name));

/** A small seeded random generator (mulberry32), so failures repeat. */
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled(array, random) {
  const copy = array.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map();
  return {
    now: () => now,
    set(fn, ms) {
      timers.set(nextId, { at: now + ms, fn });
      return nextId++;
    },
    clear(id) {
      timers.delete(id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
    get pendingTimers() {
      return timers.size;
    },
  };
}

module.exports = { folder, load, seeded, shuffled, fakeClock };
