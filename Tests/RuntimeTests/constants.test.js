// Tests for constants.js: every name the runtime shares with the server or the page, once.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const K = load('constants.js');

describe('constants', () => {
  test('message types are distinct and the wire names match Protocol.md', () => {
    const types = [K.JOIN, K.JOINED, K.EVENT, K.REPORT, K.ACK, K.PING, K.PONG, K.MOUNT, K.UNMOUNT, K.OPEN, K.PATCH, K.ERROR, K.BYE];
    assert.equal(new Set(types).size, types.length);
    assert.deepEqual(
      [K.SUBPROTOCOL, K.WS_PATH, K.VERSION, K.BACK, K.ROOT, K.PUSH, K.MODAL],
      ['footlight.v1', '/ws', 1, '@back', 'root', 'push', 'modal'],
    );
    assert.deepEqual([K.CLOSE_GOING_AWAY, K.CLOSE_TAKEN_OVER, K.CLOSE_ENDED, K.CLOSE_START_OVER], [1001, 4000, 4001, 4002]);
  });

  test('binding attributes are the ones Bindings.md names', () => {
    assert.deepEqual(Object.values(K.BIND), ['data-text', 'data-attr', 'data-class', 'data-show', 'data-hide', 'data-value', 'data-list']);
    const events = ['click', 'dblclick', 'input', 'change', 'submit', 'keydown', 'keyup', 'focus', 'blur'];
    assert.deepEqual(Object.values(K.ON), events.map((type) => `data-on-${type}`));
    assert.equal(K.A_TEMPLATE, 'data-stage');
    assert.equal(K.C_BUSY, 'footlight-busy');
    assert.equal(K.BANNER, 'footlight-banner');
  });

  test('each wire name is its own value', () => {
    for (const name of ['seq', 'stage', 'template', 'doc', 'place', 'url', 'events', 'ops', 'ack', 'n', 'from', 'snapshot']) {
      assert.equal(K[name.toUpperCase()], name);
    }
  });

  test("the runtime's texts follow the shown stages' language when the page gives its own", () => {
    /** A document whose first stage speaks `stageLang` (null: none says), with `texts` as the page's script. */
    const page = (stageLang, texts, documentLang = 'en') => ({
      documentElement: { lang: documentLang },
      querySelector: (selector) => (selector === '#footlight-outlet [lang]' && stageLang ? { lang: stageLang } : null),
      getElementById: (id) => (id === 'footlight-texts' && texts !== null ? { textContent: texts } : null),
    });
    const german = JSON.stringify({ de: { TEXT_RECONNECTING: 'Verbindung wird wiederhergestellt…' } });
    const say = (key, doc, kept) => K.text(key, K.lang(doc, kept), doc);
    assert.equal(say('TEXT_RECONNECTING', page('de', german)), 'Verbindung wird wiederhergestellt…');
    assert.equal(say('TEXT_RECONNECTING', page(null, german, 'de')), 'Verbindung wird wiederhergestellt…');
    assert.equal(say('TEXT_RECONNECTING', page('en', german)), 'Reconnecting…');
    assert.equal(say('TEXT_ENDED', page('de', german)), 'Session ended.', 'a text the page lacks');
    assert.equal(say('TEXT_RECONNECTING', page('de', '{not json')), 'Reconnecting…');
    assert.equal(say('TEXT_RECONNECTING', page('de', null)), 'Reconnecting…');
    assert.equal(K.text('TEXT_RECONNECTING', undefined, undefined), 'Reconnecting…', 'no document (Node)');
    // No stage shown yet (a reload that finds no server): the language kept from the last look.
    assert.equal(say('TEXT_RECONNECTING', page(null, german, 'en'), 'de'), 'Verbindung wird wiederhergestellt…');
    assert.equal(K.lang(page('en', german), 'de'), 'en', 'a stage shown says it');
    assert.equal(K.lang(page('de', german)), 'de');
    assert.equal(K.lang(page(null, german, '')), '');
  });
});
