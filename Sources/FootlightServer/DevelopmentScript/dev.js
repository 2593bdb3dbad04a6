/*
 * Footlight development client (scripts/dev; GettingStarted.md, "The development loop"). Not part
 * of the runtime's bundle: a debug build in development mode (ServerConfiguration.development)
 * serves it at /footlight/dev.js and names it in every page after the runtime; no other build has
 * it. It listens to the development channel, an EventSource that scripts/dev serves (its script
 * tag's data-channel), and carries out what it says:
 *   failed    the build is red: an overlay shows the compiler's errors, each with its file:line (or,
 *             with a title, why the server is not running: it stopped, or did not start);
 *   ready     green again, and the restarted server listens: the overlay goes, and the runtime
 *             redials at once (the `online` event transport.js listens for) rather than after its
 *             backoff; the server rebuilds the session from what the page shows (Protocol.md), so
 *             the screen and what was typed stay;
 *   changed   public files changed: stylesheets load again in place; the page's templates are
 *             fetched again and every shown stage is rendered again from its current document,
 *             keeping what is typed and the focus; a hook's script runs again and the stages are
 *             rendered again. Only when that fails, a reload (which keeps the session and what the
 *             page shows: storage.js);
 *   log       a line the server logged at warning or above goes to the console.
 * It reads the runtime's page globals (FootlightConstants, FootlightBindings, FootlightStages) and
 * changes nothing in them but the stages' elements and bindings, as stages.js makes them.
 */
(() => {
  'use strict';

  const K = window.FootlightConstants;
  const bindings = window.FootlightBindings;
  const stages = window.FootlightStages;
  const channel = document.currentScript?.dataset.channel;
  if (!channel || !K || !bindings || !stages) return;

  // ---- The compiler's errors --------------------------------------------------------------

  let overlay = null;

  const element = (tag, text, style) => Object.assign(document.createElement(tag), { textContent: text, style: style || '' });

  /** Shows `errors` ([{file, line, column, message}]), or the build's `output` when none was read. */
  function showErrors(errors, output, title) {
    if (!overlay) {
      overlay = element('div', '', 'position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2em;background:rgba(24,24,28,.95);color:#eee;font:14px/1.5 ui-monospace,monospace');
      overlay.id = 'footlight-dev-overlay';
      overlay.setAttribute('role', 'alert');
      document.body.append(overlay);
    }
    const items = errors.map((e) => {
      const item = element('div', '', 'margin:1em 0');
      item.className = 'footlight-dev-error';
      const where = element('div', `${e.file}:${e.line}${e.column ? `:${e.column}` : ''}`, 'color:#8cf');
      where.className = 'footlight-dev-location';
      item.append(where, element('div', e.message, 'white-space:pre-wrap'));
      return item;
    });
    const more = errors.length ? [] : [element('pre', output || '', 'white-space:pre-wrap')];
    const note = element('p', title ? 'This goes when a build is green again and the server listens.' : 'The server still runs the last build that compiled. This goes when the build is green again.', 'color:#aaa');
    overlay.replaceChildren(element('h2', title || 'The build failed', 'color:#f88;margin:0'), ...items, ...more, note);
  }

  function hideErrors() {
    overlay?.remove();
    overlay = null;
  }

  // ---- Rendering stages again -------------------------------------------------------------

  // A copy of template `name`'s content with its includes, as stages.js makes it; null if none.
  function contentOf(name, depth) {
    const source = depth <= 8 && document.querySelector(`template[${K.A_TEMPLATE}="${CSS.escape(name)}"]`);
    if (!source) return null;
    const content = source.content.cloneNode(true);
    for (const el of content.querySelectorAll(`[${K.A_INCLUDE}]`)) {
      const included = contentOf(el.getAttribute(K.A_INCLUDE), depth + 1);
      if (included) el.replaceWith(included);
    }
    return content;
  }

  // The form controls of stage element `root` (not its components'), each under a key that names it
  // in a new copy of the template too: its tag, type, name, id and data-* attributes, and its rank
  // among controls with the same.
  function controls(root) {
    const keyed = new Map();
    const seen = new Map();
    for (const c of root.querySelectorAll('input,select,textarea')) {
      if (c.closest(`.${K.C_STAGE}`) !== root) continue;
      const data = [...c.attributes].filter((a) => a.name.startsWith('data-')).map((a) => `${a.name}=${a.value}`);
      const sig = [c.tagName, c.type, c.name, c.id, ...data].join(' ');
      const rank = seen.get(sig) || 0;
      seen.set(sig, rank + 1);
      keyed.set(`${sig} #${rank}`, c);
    }
    return keyed;
  }

  // Renders stage `st` again from today's template and its current document; what was typed in its
  // controls, and the focus, go to their counterparts. False when its template is gone.
  function rebuild(st) {
    const content = contentOf(st.template, 0);
    if (!content) return false;
    const before = controls(st.el);
    const focused = document.activeElement;
    st.el.replaceChildren(content); // components' elements go too: placed again by `place`
    st.binds = bindings.bindTree(st.el, st, '');
    st.reported.clear();
    if (st.doc !== undefined) stages.render(st);
    const after = controls(st.el);
    for (const [key, old] of before) {
      const now = after.get(key);
      if (!now) continue;
      if (old.type === 'checkbox' || old.type === 'radio') now.checked = old.checked;
      else if (old.type !== 'file') now.value = old.value;
      if (old !== focused) continue;
      now.focus({ preventScroll: true });
      if (typeof old.selectionStart === 'number') now.setSelectionRange?.(old.selectionStart, old.selectionEnd);
    }
    return true;
  }

  // Puts component `st` back in its parent's element that names its host (in its row for a row's).
  function place(st) {
    const parent = stages.get(st.in);
    const selector = `[${K.A_COMPONENT}="${CSS.escape(st.at)}"]`;
    const scope = st.row == null ? parent?.el : parent?.binds?.map((b) => b.rows?.get(st.row)).find(Boolean)?.node;
    const host = [scope, ...(scope?.querySelectorAll(selector) || [])].find((h) => h?.matches(selector) && h.closest(`.${K.C_STAGE}`) === parent.el);
    host?.replaceChildren(st.el);
  }

  const depth = (st) => (st.in ? 1 + depth(stages.get(st.in) || {}) : 0);

  /** Renders every shown stage again, parents before their components; false if one failed. */
  function rebuildAll() {
    const shown = stages.all().filter((st) => st.el).sort((a, b) => depth(a) - depth(b));
    let ok = true;
    for (const st of shown) {
      ok = rebuild(st) && ok;
      if (st.in) place(st);
    }
    return ok;
  }

  // ---- Public files -----------------------------------------------------------------------

  const fresh = (href) => {
    const url = new URL(href, location.href);
    url.searchParams.set('footlight-dev', Date.now());
    return url.href;
  };
  const local = (href) => new URL(href, location.href).origin === location.origin;
  const named = (href, path) => new URL(href, location.href).pathname.split('/').pop() === path.split('/').pop();

  // Loads every stylesheet of the page's own again; the old one goes once the new one applies.
  function restyle() {
    for (const link of document.querySelectorAll('link[rel~="stylesheet"][href]')) {
      if (!local(link.href)) continue;
      const next = link.cloneNode();
      next.href = fresh(link.href);
      next.onload = next.onerror = () => link.remove();
      link.after(next);
    }
  }

  // Takes the templates of the page as the server serves it now; renders the stages again if one changed.
  async function retemplate() {
    const response = await fetch(location.href, { cache: 'no-store' });
    if (!response.ok) throw new Error(`the page answered ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    let changed = false;
    for (const next of page.querySelectorAll(`template[${K.A_TEMPLATE}]`)) {
      const old = document.querySelector(`template[${K.A_TEMPLATE}="${CSS.escape(next.getAttribute(K.A_TEMPLATE))}"]`);
      if (old?.innerHTML === next.innerHTML) continue;
      changed = true;
      const adopted = document.importNode(next, true);
      if (old) old.replaceWith(adopted);
      else document.body.append(adopted);
    }
    if (changed && !rebuildAll()) throw new Error('a shown stage has no template now');
  }

  // Runs the page's own script `path` (a hook's) again, then renders the stages again.
  function rescript(path) {
    const old = [...document.querySelectorAll('script[src]')].find((s) => local(s.src) && !new URL(s.src).pathname.startsWith('/footlight/') && named(s.src, path));
    if (!old) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = fresh(old.src);
      // An error in it (such as a `const` declared again) is the window's, named by its address.
      const failed = (event) => event.filename === script.src && reject(new Error(event.message));
      addEventListener('error', failed);
      script.onload = () => {
        removeEventListener('error', failed);
        old.remove();
        rebuildAll() ? resolve() : reject(new Error('a shown stage has no template now'));
      };
      script.onerror = () => reject(new Error(`cannot load ${path}`));
      old.after(script);
    });
  }

  /** Brings the changed public files (`paths`, relative to the public folder) into the page. */
  async function changed(paths) {
    try {
      if (paths.some((p) => p.endsWith('.css'))) restyle();
      if (paths.some((p) => p.endsWith('.html'))) await retemplate();
      for (const path of paths.filter((p) => p.endsWith('.js'))) await rescript(path);
    } catch (error) {
      console.warn(`footlight dev: ${error.message}; reloading (the session and what the page shows are kept)`);
      location.reload();
    }
  }

  // ---- The channel ------------------------------------------------------------------------

  const source = new EventSource(channel);
  const on = (type, handle) => source.addEventListener(type, (event) => handle(JSON.parse(event.data)));
  on('failed', (m) => showErrors(m.errors || [], m.output, m.title));
  on('ready', () => {
    hideErrors();
    dispatchEvent(new Event('online'));
  });
  on('changed', (m) => changed(m.paths || []));
  on('log', (m) => (m.level === 'warning' ? console.warn : console.error)(`footlight server: ${m.line}`));
})();
