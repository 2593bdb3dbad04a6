// Tests for the upload hook (Sources/FootlightServer/Runtime/upload.js) on its own: what it sends when files
// are chosen, the PUT it makes for each address the server pushes, and how it asks for a new
// address when a request is cut, with fetch, the timers and the hook registry faked.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const source = fs.readFileSync(path.resolve(__dirname, '..', '..', 'Sources', 'FootlightServer', 'Runtime', 'upload.js'), 'utf8');

/** A file as the browser gives it: name, size, type, and slice() (recorded as `from`). */
const file = (name, size, type = 'image/png') => ({ name, size, type, slice: (from) => ({ of: name, from }) });

/**
 * upload.js loaded in a context of its own. `answers` says how each fetch ends, in order:
 * a status (the server answered) or 'cut' (the request failed). Returns the registered hook,
 * an instance mounted on an input bound to `event`, and what it did.
 */
function loaded(answers = [], event = 'avatar') {
  const hooks = {};
  const requests = [];
  const signals = []; // each request's abort signal
  const sent = [];
  const warnings = [];
  const timers = [];
  const stageListeners = {};
  const context = {
    window: { footlight: { hook: (name, callbacks) => (hooks[name] = callbacks) } },
    fetch: (url, options) => {
      requests.push({ url, method: options.method, body: options.body });
      signals.push(options.signal);
      const answer = answers.shift() ?? 204;
      // 'hold': the request stays on its way until aborted (then it fails, as fetch does).
      if (answer === 'hold') return new Promise((_, fail) => options.signal.addEventListener('abort', () => fail(new Error('aborted'))));
      return answer === 'cut' ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve({ status: answer });
    },
    AbortController,
    setTimeout: (work, ms) => timers.push({ work, ms }),
    console: { warn: (text) => warnings.push(text) },
  };
  vm.runInNewContext(source, context);
  const listeners = {};
  // The input's stage element, where the hook listens for its cancel buttons' clicks.
  const stage = { addEventListener: (type, listener) => (stageListeners[type] = listener) };
  const el = {
    dataset: { upload: event },
    files: [],
    addEventListener: (type, listener) => (listeners[type] = listener),
    closest: (selector) => (selector === '.footlight-stage' ? stage : null),
  };
  // Values made in the hook's context are copied as the wire would (other realms' prototypes).
  const h = { el, send: (name, value) => sent.push({ name, value: JSON.parse(JSON.stringify(value)) }) };
  hooks.upload.mounted(h);
  /** Chooses `files` in the input, as the visitor does. */
  const choose = (...files) => {
    el.files = files;
    listeners.change();
  };
  /** Lets the fetch promises settle. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** A click in the input's stage on an element that `matches` the selector given to closest(). */
  const click = (matches) => stageListeners.click?.({ target: { closest: (selector) => (matches(selector) ? {} : null) } });
  return { hook: hooks.upload, h, el, requests, signals, sent, warnings, timers, choose, settle, click };
}

describe('upload hook', () => {
  test('choosing files sends their descriptions as the bound event; choosing none sends nothing', () => {
    const page = loaded();
    page.choose(file('me.png', 2048), file('notes.txt', 12, 'text/plain'));
    assert.deepEqual(page.sent, [
      { name: 'avatar', value: [{ name: 'me.png', size: 2048, type: 'image/png' }, { name: 'notes.txt', size: 12, type: 'text/plain' }] },
    ]);
    page.choose();
    assert.equal(page.sent.length, 1);
  });

  test("each address pushed PUTs its file from the server's offset; another input's message is not this one's", async () => {
    const page = loaded();
    page.choose(file('a.png', 100), file('b.png', 200));
    page.hook.received(page.h, { at: 'avatar', n: 1, id: 'u2', url: '/_footlight/upload/t2', from: 0 });
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t1', from: 40 });
    page.hook.received(page.h, { at: 'cover', n: 0, id: 'u3', url: '/_footlight/upload/t3', from: 0 });
    page.hook.received(page.h, null);
    await page.settle();
    assert.deepEqual(page.requests, [
      { url: '/_footlight/upload/t2', method: 'PUT', body: { of: 'b.png', from: 0 } },
      { url: '/_footlight/upload/t1', method: 'PUT', body: { of: 'a.png', from: 40 } },
    ]);
    assert.deepEqual(page.timers, [], 'nothing to retry');
  });

  test('a cut request asks for a new address after a pause that doubles; five times at most, then the server is told', async () => {
    const page = loaded(['cut', 'cut', 'cut', 'cut', 'cut', 'cut']);
    page.choose(file('big.png', 1000));
    const address = (from) => ({ at: 'avatar', n: 0, id: 'u1', url: `/_footlight/upload/t${from}`, from });
    for (let attempt = 0; attempt < 5; attempt++) {
      page.hook.received(page.h, address(attempt * 100));
      await page.settle();
    }
    assert.deepEqual(page.timers.map((timer) => timer.ms), [500, 1000, 2000, 4000, 8000]);
    page.timers[0].work();
    assert.deepEqual(page.sent.at(-1), { name: 'avatar', value: { resume: 'u1', n: 0 } });
    page.hook.received(page.h, address(500));
    await page.settle();
    assert.deepEqual(page.requests.map((request) => request.body.from), [0, 100, 200, 300, 400, 500]);
    assert.equal(page.warnings.length, 1);
    assert.match(page.warnings[0], /"big\.png" given up after 5 tries/);
    assert.deepEqual(page.sent.at(-1), { name: 'avatar', value: { cancel: 'u1', lost: true } }, 'the Director hears of it');
    const sent = page.sent.length;
    page.timers[4].work();
    assert.equal(page.sent.length, sent, 'no new address for an upload given up');
  });

  test('a spent or expired ticket (403), a short body (400) and a proxy that reached no server (502, 503, 504) ask for a new address; any other answer is the server telling the Director', async () => {
    const page = loaded([502, 503, 504, 403, 400, 409, 410, 415, 204]);
    page.choose(file('a.png', 10));
    for (let index = 0; index < 9; index++) {
      page.hook.received(page.h, { at: 'avatar', n: 0, id: `u${index}`, url: `/_footlight/upload/t${index}`, from: 0 });
      await page.settle();
    }
    assert.equal(page.timers.length, 5);
    for (const timer of page.timers) timer.work();
    assert.deepEqual(page.sent.slice(1).map((message) => message.value.resume), ['u0', 'u1', 'u2', 'u3', 'u4']);
    assert.deepEqual(page.warnings, []);
  });

  test('a connection reset: the browser re-sends with the spent ticket (403), and the rest goes with a new one', async () => {
    const page = loaded([403, 204]);
    page.choose(file('big.png', 1000));
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t1', from: 0 });
    await page.settle();
    page.timers[0].work();
    assert.deepEqual(page.sent.at(-1), { name: 'avatar', value: { resume: 'u1', n: 0 } });
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t2', from: 600 });
    await page.settle();
    assert.deepEqual(page.requests.map((request) => [request.url, request.body.from]), [
      ['/_footlight/upload/t1', 0],
      ['/_footlight/upload/t2', 600],
    ]);
  });

  test('choosing other files cancels those on their way: the request stops, the server is told first, a late address is not used', async () => {
    const page = loaded(['hold', 204]);
    page.choose(file('first.png', 100));
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t1', from: 0 });
    page.choose(file('second.png', 200));
    assert.equal(page.signals[0].aborted, true);
    assert.deepEqual(page.sent.slice(1), [
      { name: 'avatar', value: { cancel: 'u1' } },
      { name: 'avatar', value: [{ name: 'second.png', size: 200, type: 'image/png' }] },
    ]);
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t1b', from: 50 });
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u2', url: '/_footlight/upload/t2', from: 0 });
    await page.settle();
    assert.deepEqual(page.requests.slice(1).map((request) => [request.url, request.body.of]), [['/_footlight/upload/t2', 'second.png']]);
    assert.deepEqual(page.timers, [], 'an aborted request is not retried');
  });

  test("a click on the event's cancel button cancels the files on their way and empties the input; a dialog closed with no choice cancels nothing", async () => {
    const page = loaded(['hold']);
    page.choose(file('a.png', 100));
    page.hook.received(page.h, { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t1', from: 0 });
    page.choose();
    page.click((selector) => selector === '[data-upload-cancel="cover"]');
    assert.equal(page.signals[0].aborted, false, "another input's button, or no choice, cancels nothing");
    page.el.value = 'C:\\fakepath\\a.png';
    page.click((selector) => selector === '[data-upload-cancel="avatar"]');
    assert.equal(page.signals[0].aborted, true);
    assert.deepEqual(page.sent.at(-1), { name: 'avatar', value: { cancel: 'u1' } });
    assert.equal(page.el.value, '');
    page.click((selector) => selector === '[data-upload-cancel="avatar"]');
    assert.equal(page.sent.filter((message) => message.value.cancel).length, 1, 'nothing more on its way');
    await page.settle();
    assert.deepEqual(page.timers, []);
  });

  test('a success after cuts starts the count again', async () => {
    const page = loaded(['cut', 204, 'cut']);
    page.choose(file('a.png', 10));
    const address = { at: 'avatar', n: 0, id: 'u1', url: '/_footlight/upload/t', from: 0 };
    for (let attempt = 0; attempt < 3; attempt++) {
      page.hook.received(page.h, address);
      await page.settle();
    }
    assert.deepEqual(page.timers.map((timer) => timer.ms), [500, 500]);
  });

  test('an address for a file no longer chosen is warned about, not sent', async () => {
    const page = loaded();
    page.choose(file('a.png', 10));
    page.hook.received(page.h, { at: 'avatar', n: 3, id: 'u1', url: '/_footlight/upload/t', from: 0 });
    await page.settle();
    assert.deepEqual(page.requests, []);
    assert.match(page.warnings[0], /file 3 is no longer chosen/);
  });
});
