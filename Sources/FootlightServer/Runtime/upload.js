/*
 * Footlight uploads (Bindings.md, "Uploads"): the hook "upload", for a file input bound to an
 * upload in Swift (`stage.upload("avatar", …)`):
 *
 *   <input type="file" data-hook="upload" data-upload="avatar">
 *
 * When the visitor chooses files, it sends the upload event with their descriptions
 * ([{name, size, type}]). The server checks them and pushes one message per file it takes:
 * {at: event, n: the file's index, id, url: a single-use address, from: the bytes it holds}. The
 * hook PUTs the file's bytes from there. When a request is cut (or a proxy answers that it
 * reached no server: 502, 503, 504), it asks for a new address ({resume: id, n}) after a pause
 * that doubles each time, five times at most; the server answers
 * with the bytes it holds, and the rest goes. What became of each file (progress, the end, a
 * refusal) reaches the Director, whose view shows it (a <progress>, a message).
 *
 * The last file of the runtime bundle (footlight.js): it registers the hook with the runtime,
 * which runtime.js has made. Plain JavaScript, no dependencies.
 */
'use strict';

(() => {
  const RETRIES = 5;
  const PAUSE_MS = 500; // before the first new address; doubled for each later one

  function put(h, message) {
    const file = h.el.files?.[message.n];
    if (!file) return console.warn(`footlight: upload "${h.event}": file ${message.n} is no longer chosen`);
    fetch(message.url, { method: 'PUT', body: file.slice(message.from) })
      .then((answer) => {
        if (answer.status >= 502 && answer.status <= 504) throw answer;
        h.failures.delete(message.id); // the server tells the Director how it went
      })
      .catch(() => {
        const failures = (h.failures.get(message.id) || 0) + 1;
        h.failures.set(message.id, failures);
        if (failures > RETRIES) return console.warn(`footlight: upload of "${file.name}" given up after ${RETRIES} tries`);
        setTimeout(() => h.send(h.event, { resume: message.id, n: message.n }), PAUSE_MS * 2 ** (failures - 1));
      });
  }

  window.footlight.hook('upload', {
    mounted(h) {
      h.event = h.el.dataset.upload;
      h.failures = new Map(); // upload id → requests cut in a row
      // The chosen files' descriptions go with the event.
      h.el.addEventListener('change', () => h.el.files.length && h.send(h.event, [...h.el.files].map(({ name, size, type }) => ({ name, size, type }))));
    },
    received(h, message) {
      if (message?.at === h.event) put(h, message); // another input's files are its own
    },
  });
})();
