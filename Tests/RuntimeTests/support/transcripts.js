// Support for transcripts.test.js: the protocol transcripts (Tests/Fixtures/protocol/*.json, the
// conversations the Swift tests replay through the session machine and ClientMirror) replayed by
// the runtime in the fake browser. Each step's `client` message is what the page must send then,
// (a `report` it sends by itself, of a slot its document lacks, one the transcript's `templates`
// binds),
// each `server` message is handed to its socket (unless `lost` in a cut), and `documents` are what
// the page then holds; `app` steps are the server's alone; `cut` and `restart` drop the socket.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { load } = require('./runtime.js');
const { fakeBrowser, loadPage } = require('./fake-browser.js');
const K = load('constants.js');

/** The fixtures folder the Swift tests read too. */
const folder = path.resolve(__dirname, '..', '..', 'Fixtures', 'protocol');

/** Every transcript, with its file name. */
const transcripts = () =>
  fs
    .readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) }));

/** Moves the fake clock a second at a time, at most `ms`, until `done()` holds. */
function advanceUntil(browser, ms, done) {
  for (let waited = 0; waited < ms && !done(); waited += 1000) browser.clock.advance(1000);
}

/**
 * Replays `transcript` in a fresh page whose templates are empty (so bindings report nothing).
 * Makes the page send each client message when the transcript says: a join when its socket opens,
 * an event through the page's debug handle, an ack when the ack timer runs, a ping when the ping
 * timer does. Returns the URLs the page opened.
 */
function replay(transcript) {
  // Each template holds the hosts its components are placed at, and shows as text the slots the
  // transcript's `templates` name for it (a slot its document lacks is reported).
  const hosts = {};
  const mounts = transcript.steps.map((step) => step.server).filter((message) => message?.[K.T] === K.MOUNT);
  const templateOf = (id) => mounts.find((message) => message[K.STAGE] === id)?.[K.TEMPLATE];
  for (const message of mounts) hosts[message[K.TEMPLATE]] ??= [];
  for (const message of mounts) if (message[K.IN]) hosts[templateOf(message[K.IN])].push(message[K.AT]);
  const templates = Object.fromEntries(
    Object.entries(hosts).map(([name, names]) => [
      name,
      (h) => [...names.map((host) => h('div', { [K.A_COMPONENT]: host })), ...(transcript.templates?.[name] ?? []).map((slot) => h('p', { [K.BIND.text]: slot }))],
    ]),
  );
  const browser = fakeBrowser(templates);
  const opened = [];
  browser.window.open = (url) => opened.push(url);
  // The ping's interval runs on the fake clock here (the fake browser's never fires).
  browser.window.setInterval = (fn, ms) => {
    const interval = {};
    const tick = () => {
      interval.timer = browser.clock.set(tick, ms);
      fn();
    };
    interval.timer = browser.clock.set(tick, ms);
    return interval;
  };
  browser.window.clearInterval = (interval) => interval && browser.clock.clear(interval.timer);
  loadPage(browser.window);
  browser.document.readyState = 'interactive';
  for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
  const socket = () => browser.sockets.at(-1);
  const sent = () => browser.sockets.flatMap((one) => one.sent.splice(0));
  transcript.steps.forEach((step, index) => {
    const at = `${transcript.file}, step ${index}`;
    if (step.client) {
      const message = step.client;
      const type = message[K.T];
      if (type === K.JOIN) socket().open();
      else if (type === K.EVENT) browser.window.footlight.send(message[K.STAGE], message[K.NAME], message[K.VALUE]);
      else if (type === K.ACK) browser.clock.advance(K.ACK_MS);
      else if (type === K.PING) advanceUntil(browser, K.PING_MS, () => socket().sent.length > 0);
      // A report the page sent by itself (a binding error), as the transcript says it does.
      assert.deepEqual(sent(), [message], `${at}: what the page sends`);
    } else if (step.server) {
      if (!step.lost) socket().receive(step.server);
      // Through JSON: the page's objects are of the page's realm.
      const documents = () => JSON.parse(JSON.stringify(browser.window.footlight.state().documents));
      if (step.documents) assert.deepEqual(documents(), step.documents, `${at}: documents`);
    } else if (step.cut || step.restart) {
      const before = browser.sockets.length;
      socket().onclose({ code: 1006 });
      advanceUntil(browser, K.BACKOFF_CAP + 1000, () => browser.sockets.length > before);
      assert.equal(browser.sockets.length, before + 1, `${at}: the page dials again`);
    }
  });
  assert.deepEqual(sent(), [], `${transcript.file}: nothing sent that the transcript does not say`);
  // The console shows each server error (by its code here) and each report, and nothing else.
  const told = transcript.steps.flatMap(({ server, client, lost }) => {
    if (server?.[K.T] === K.ERROR && !lost) return [server[K.CODE]];
    if (client?.[K.T] === K.REPORT) return [`footlight: stage "${client[K.STAGE]}": ${client[K.MESSAGE]}`];
    return [];
  });
  const logged = browser.errors.map((error) => /^footlight: server error ([\w-]+)/.exec(error)?.[1] ?? error);
  assert.deepEqual(logged, told, `${transcript.file}: console errors`);
  return { opened };
}

module.exports = { folder, transcripts, replay };
