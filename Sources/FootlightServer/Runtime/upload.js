/*
 * Footlight uploads (Bindings.md, "Uploads"): the hook "upload", for a file input bound to an
 * upload in Swift (`stage.upload("avatar", …)`):
 *
 *   <input type="file" data-hook="upload" data-upload="avatar">
 *   <button type="button" data-upload-cancel="avatar">Cancel</button>
 *
 * When the visitor chooses files, it sends the upload event with their descriptions
 * ([{name, size, type}]). The server checks them and pushes one message per file it takes:
 * {at: event, n: the file's index, id, url: a single-use address, from: the bytes it holds}. The
 * hook PUTs the file's bytes from there. When a request is cut, or its ticket was spent or expired
 * (403: the browser re-sent a request after a reset), or the body fell short (400), or a proxy
 * answers that it reached no server (502, 503, 504), it asks for a new address ({resume: id, n})
 * after a pause that doubles each time, five times at most; the server answers with the bytes it
 * holds, and the rest goes. Past that, it tells the server it gave up ({cancel: id, lost: true}).
 * Choosing other files, or a click on a data-upload-cancel button of the stage naming the event, cancels the
 * files on their way ({cancel: id}). What became of each file (progress, the end, a refusal, a
 * cancel) reaches the Director, whose view shows it (a <progress>, a message).
 *
 * The last file of the runtime bundle (footlight.js): it registers the hook with the runtime,
 * which runtime.js has made. Plain JavaScript, no dependencies.
 */
'use strict';

(() => {
  const RETRIES = 5;
  const PAUSE_MS = 500; // before the first new address; doubled for each later one
  const AGAIN = [400, 403, 502, 503, 504]; // answers after which a new address is asked for

  function put(h, message) {
    const { id, n } = message;
    let up = h.ups.get(id);
    if (up === 0) return; // cancelled: an address asked for before
    if (!up) {
      // A new file of the last choice; its own file object from now on, whatever is chosen later.
      const file = h.files[n];
      if (!file) return console.warn(`footlight: upload "${h.event}": file ${n} is no longer chosen`);
      h.ups.set(id, (up = { file, n, failures: 0 }));
    }
    const stop = (up.stop = new AbortController());
    fetch(message.url, { method: 'PUT', body: up.file.slice(message.from), signal: stop.signal })
      .then((answer) => {
        if (AGAIN.includes(answer.status)) throw answer;
        h.ups.delete(id); // the server tells the Director how it went
      })
      .catch(() => {
        if (stop.signal.aborted || h.ups.get(id) !== up) return;
        if (++up.failures > RETRIES) {
          console.warn(`footlight: upload of "${up.file.name}" given up after ${RETRIES} tries`);
          h.ups.set(id, 0);
          return h.send(h.event, { cancel: id, lost: true });
        }
        setTimeout(() => h.ups.get(id) === up && h.send(h.event, { resume: id, n }), PAUSE_MS * 2 ** (up.failures - 1));
      });
  }

  /** Ends the uploads on their way: their requests stop, the server is told. */
  function cancel(h) {
    for (const [id, up] of h.ups) {
      if (!up) continue;
      up.stop?.abort();
      h.ups.set(id, 0);
      h.send(h.event, { cancel: id });
    }
  }

  window.footlight.hook('upload', {
    mounted(h) {
      h.event = h.el.dataset.upload;
      h.files = [];
      // upload id → {file, n, failures, stop}: the files on their way; 0 once cancelled here (a late
      // address for one is not used)
      h.ups = new Map();
      // The chosen files' descriptions go with the event, after the cancel of those on their way
      // (a dialog closed with no choice cancels nothing).
      h.el.addEventListener('change', () => {
        if (!h.el.files.length) return;
        cancel(h);
        h.files = [...h.el.files];
        h.send(h.event, h.files.map(({ name, size, type }) => ({ name, size, type })));
      });
      // A cancel button of the event in the same stage (K.C_STAGE; the listener goes with its element).
      h.el.closest('.footlight-stage')?.addEventListener('click', (event) => {
        if (!event.target.closest?.(`[data-upload-cancel="${h.event}"]`)) return;
        cancel(h);
        h.el.value = ''; // the same file can be chosen again
      });
    },
    received(h, message) {
      if (message?.at === h.event) put(h, message); // another input's files are its own
    },
  });
})();
