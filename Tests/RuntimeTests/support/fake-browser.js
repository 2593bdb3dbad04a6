// Support for the runtime's Node tests: a fake browser, just enough of one for the runtime, and
// pages booted in it.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { folder, fakeClock } = require('./runtime.js');

/** The page's script tags, in order, with the one global each file sets in a browser. */
const PAGE = [
  ['constants.js', 'FootlightConstants'],
  ['pointer.js', 'FootlightPointer'],
  ['patch.js', 'FootlightPatch'],
  ['lists.js', 'FootlightLists'],
  ['bindings.js', 'FootlightBindings'],
  ['events.js', 'FootlightEvents'],
  ['session.js', 'FootlightSession'],
  ['storage.js', 'FootlightStorage'],
  ['banner.js', 'FootlightBanner'],
  ['keeping.js', 'FootlightKeeping'],
  ['transport.js', 'FootlightTransport'],
  ['history.js', 'FootlightHistory'],
  ['hooks.js', 'FootlightHooks'],
  ['stages.js', 'FootlightStages'],
  ['commands.js', 'FootlightCommands'],
  ['runtime.js', 'footlight'],
];

/** What a file's wrapper hands its factory: {required: the files under Node, read: the globals in a page}. */
function wrapperInputs(file) {
  const source = fs.readFileSync(path.join(folder, file), 'utf8');
  const [start, end] = [source.indexOf('((root, factory) => {'), source.indexOf('})(this, ')];
  assert.ok(start >= 0 && end > start, `${file} starts with the usual wrapper`);
  const wrapper = source.slice(start, end);
  const required = [...wrapper.matchAll(/require\('\.\/([\w-]+\.js)'\)/g)].map((match) => match[1]);
  const read = [...wrapper.matchAll(/\broot\.(\w+)\b(?!\s*=[^=])/g)].map((match) => match[1]);
  return { required, read };
}

/**
 * Just enough of a browser for the runtime: elements (attributes, classes, children, bubbling
 * events, focus), a document with the page's outlets and stage templates, a WebSocket that
 * records what is sent, sessionStorage, History and timers that run only when the test says so.
 * `templates` maps a template name to a function building its content.
 */
function fakeBrowser(templates) {
  const clock = fakeClock();
  const sockets = [];
  const errors = [];
  const documentListeners = [];
  const windowListeners = [];
  const windowHandlers = {}; // type → the listeners, to fire them

  class Element {
    constructor(tagName, attributes = {}, children = []) {
      const classes = new Set();
      Object.assign(this, { tagName: tagName.toUpperCase(), parentNode: null, children: [], hidden: false, text: '' });
      this.attributes = new Map(Object.entries(attributes));
      this.type = attributes.type ?? '';
      this.value = '';
      this.listeners = {};
      this.classList = {
        add: (name) => classes.add(name),
        remove: (name) => classes.delete(name),
        toggle: (name, on = !classes.has(name)) => (on ? classes.add(name) : classes.delete(name), on),
        contains: (name) => classes.has(name),
      };
      this.append(...children);
    }
    get textContent() {
      return this.text + this.children.map((child) => child.textContent).join('');
    }
    set textContent(text) {
      for (const child of this.children) child.parentNode = null;
      this.children = [];
      this.text = String(text);
    }
    // A form's controls, and a control's name, as formValue reads them.
    get elements() {
      return this.querySelectorAll('input,select,textarea,button');
    }
    get name() {
      return this.getAttribute('name') ?? '';
    }
    get childElementCount() {
      return this.children.length;
    }
    get firstElementChild() {
      return this.children[0] ?? null;
    }
    getAttribute(name) {
      return this.attributes.has(name) ? this.attributes.get(name) : null;
    }
    hasAttribute(name) {
      return this.attributes.has(name);
    }
    setAttribute(name, value) {
      this.attributes.set(name, String(value));
    }
    removeAttribute(name) {
      this.attributes.delete(name);
    }
    // Selectors the runtime uses on stage content: lists of tag[attribute="value"], each part
    // optional, and a class (.name, as a stage's element has).
    matches(selector) {
      return selector.split(',').some((one) => {
        const className = /^\.([\w-]+)$/.exec(one.trim())?.[1];
        if (className) return this.className === className || this.classList.contains(className);
        const match = /^([\w-]*)(?:\[([\w-]+)(?:="([^"]*)")?\])?$/.exec(one.trim());
        if (!match || !(match[1] || match[2])) return false;
        const [, tag, name, value] = match;
        if (tag && this.tagName !== tag.toUpperCase()) return false;
        if (name && !this.attributes.has(name)) return false;
        return value === undefined || this.attributes.get(name) === value;
      });
    }
    querySelectorAll(selector) {
      return this.children.flatMap((child) => [...(child.matches(selector) ? [child] : []), ...child.querySelectorAll(selector)]);
    }
    querySelector(selector) {
      return this.querySelectorAll(selector)[0] ?? null;
    }
    closest(selector) {
      for (let el = this; el; el = el.parentNode) if (el.matches(selector)) return el;
      return null;
    }
    replaceChildren(...nodes) {
      this.textContent = '';
      this.append(...nodes);
    }
    replaceWith(node) {
      const parent = this.parentNode;
      // A fragment's children take its place.
      for (const child of node.tagName === '#FRAGMENT' ? [...node.children] : [node]) parent.insertBefore(child, this);
      this.remove();
    }
    append(...nodes) {
      for (const node of nodes) {
        if (typeof node === 'string') this.text += node;
        else this.insertBefore(node, null);
      }
    }
    insertBefore(node, next) {
      node.remove();
      node.parentNode = this;
      this.children.splice(next ? this.children.indexOf(next) : this.children.length, 0, node);
    }
    remove() {
      if (this.parentNode) this.parentNode.children.splice(this.parentNode.children.indexOf(this), 1);
      this.parentNode = null;
    }
    cloneNode(deep) {
      const copy = new Element(this.tagName, Object.fromEntries(this.attributes), deep ? this.children.map((child) => child.cloneNode(true)) : []);
      copy.text = this.text;
      if (this.content) copy.content = this.content.cloneNode(true);
      return copy;
    }
    addEventListener(type, listener) {
      (this.listeners[type] ||= []).push(listener);
    }
    /** Dispatches a bubbling event at this element; returns it. */
    dispatch(type, init = {}) {
      const event = { type, target: this, defaultPrevented: false, ...init };
      event.preventDefault = () => (event.defaultPrevented = true);
      for (let el = this; el; el = el.parentNode) for (const listener of el.listeners[type] || []) listener(event);
      return event;
    }
    dispatchEvent(event) {
      this.dispatch(event.type);
    }
    focus() {
      document.activeElement = this;
    }
    get parentElement() {
      return this.parentNode;
    }
    contains(node) {
      for (let el = node; el; el = el.parentNode) if (el === this) return true;
      return false;
    }
    // In the page: under one of its outlets (the fake has no <body> holding them).
    get isConnected() {
      return Object.values(page).some((root) => root.contains(this));
    }
  }

  /** An element; a 'template' takes its children as its content, as in a page. */
  const h = (tagName, attributes, ...children) => {
    if (tagName !== 'template') return new Element(tagName, attributes, children);
    return Object.assign(new Element(tagName, attributes), { content: new Element('#fragment', {}, children) });
  };

  const page = { outlet: h('main'), modals: h('div'), banner: h('div') };
  const ids = { 'footlight-outlet': page.outlet, 'footlight-modal': page.modals, 'footlight-banner': page.banner };
  const document = {
    readyState: 'loading',
    activeElement: null,
    documentElement: h('html'),
    addEventListener: (type, listener) => documentListeners.push([type, listener]),
    getElementById: (id) => ids[id] ?? null,
    querySelector(selector) {
      const name = /^template\[data-stage="(.*)"\]$/.exec(selector)?.[1];
      return name in templates ? h('template', { 'data-stage': name }, ...templates[name](h)) : null;
    },
    createElement: (tagName) => h(tagName, {}),
  };

  class WebSocket {
    constructor(url, protocol) {
      Object.assign(this, { url, protocol, readyState: 0, sent: [] });
      sockets.push(this);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.readyState = 3;
    }
    // For the test: the server's side.
    open() {
      this.readyState = 1;
      this.onopen();
    }
    receive(message) {
      this.onmessage({ data: JSON.stringify(message) });
    }
  }

  const storage = new Map();
  const window = {
    document,
    WebSocket,
    location: { protocol: 'http:', host: 'footlight.test', pathname: '/', search: '', href: 'http://footlight.test/' },
    history: { state: null, pushState() {}, replaceState() {}, back() {}, go() {} },
    sessionStorage: {
      getItem: (key) => (storage.has(key) ? storage.get(key) : null),
      setItem: (key, value) => storage.set(key, String(value)),
      removeItem: (key) => storage.delete(key),
    },
    CSS: { escape: (text) => text },
    Event: class {
      constructor(type) {
        this.type = type;
      }
    },
    setTimeout: (fn, ms = 0) => clock.set(fn, ms),
    clearTimeout: (id) => clock.clear(id),
    setInterval: () => 0, // the ping: never due in these tests
    clearInterval() {},
    addEventListener: (type, listener) => (windowListeners.push(type), (windowHandlers[type] ||= []).push(listener)),
    scrollY: 0,
    scrollTo() {},
    open() {},
    console: { ...console, error: (...args) => errors.push(args.join(' ')) },
  };
  window.window = window;
  window.self = window;
  const fire = (type, event = {}) => (windowHandlers[type] || []).forEach((listener) => listener(event));
  return { window, document, page, clock, sockets, errors, storage, documentListeners, windowListeners, fire };
}

/**
 * Runs the runtime's files (PAGE: all but the upload hook) in page order in one context, as the
 * page's script tags do. Returns, for each file, the globals it added and the names of existing
 * globals whose value it changed (`writes`), and a check that every file's exports are still what
 * they were just after that file ran.
 */
function loadPage(window) {
  const context = vm.createContext(window);
  const writes = [];
  const exported = [];
  for (const [file, global] of PAGE) {
    const before = new Map(Object.getOwnPropertyNames(window).map((name) => [name, window[name]]));
    vm.runInContext(fs.readFileSync(path.join(folder, file), 'utf8'), context, { filename: file });
    const names = Object.getOwnPropertyNames(window);
    writes.push({
      file,
      added: names.filter((name) => !before.has(name)),
      changed: names.filter((name) => before.has(name) && before.get(name) !== window[name]),
    });
    exported.push([global, window[global], { ...window[global] }, JSON.stringify(window[global])]);
  }
  const exportsUnchanged = () => {
    for (const [global, value, copy, json] of exported) {
      assert.equal(window[global], value, `the global ${global}`);
      assert.deepEqual(Object.keys(value), Object.keys(copy), `the names ${global} exports`);
      for (const name of Object.keys(copy)) assert.equal(value[name], copy[name], `${global}.${name}`);
      assert.equal(JSON.stringify(value), json, `${global}'s data`);
    }
  };
  return { writes, exportsUnchanged };
}

/** A stage template with an output of each kind the wiring touches, a list and two events. */
const demoTemplate = (h) => [
  h('p', { class: 'count', 'data-text': 'count' }),
  h('p', { 'data-text': 'missing' }),
  h('button', { type: 'button', 'data-on-click': 'increment' }),
  h('input', { type: 'text', 'data-value': 'name', 'data-on-input': 'name' }),
  h('ol', { 'data-list': 'rows' }, h('template', {}, h('li', {}, h('button', { type: 'button', 'data-on-click': 'open', 'data-text': 'title' })))),
];

/** A page with `templates`, booted, whose first socket joined a new session `token`. */
function bootedPage(templates, token) {
  const browser = fakeBrowser(templates);
  loadPage(browser.window);
  browser.document.readyState = 'interactive';
  for (const [type, listener] of [...browser.documentListeners]) if (type === 'DOMContentLoaded') listener();
  const [socket] = browser.sockets;
  socket.open();
  socket.receive({ t: 'joined', v: 1, token, resumed: false, events: 0 });
  return browser;
}

/** A booted page whose first socket joined a new session `token` showing stage s1 (template demo). */
function joinedPage(token) {
  const browser = bootedPage({ demo: demoTemplate }, token);
  browser.sockets[0].receive({ t: 'mount', seq: 1, stage: 's1', template: 'demo', place: 'root', doc: { count: 1, name: '', rows: [] }, events: {} });
  return browser;
}

module.exports = { PAGE, wrapperInputs, fakeBrowser, loadPage, demoTemplate, bootedPage, joinedPage };
