// Tests for commands.js in a fake browser (support/fake-browser.js).
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { joinedPage } = require('./support/fake-browser.js');

describe('client commands in a page', () => {
  test('client commands: from the server in order, and declared on an event, run in the page with no round trip', () => {
    const browser = joinedPage('tok');
    const { window, document, page, sockets, errors } = browser;
    const [socket] = sockets;
    const copied = [];
    window.navigator = { clipboard: { writeText: (text) => (copied.push(text), Promise.resolve()) } };
    document.title = 'Kiosk';
    errors.splice(0); // the demo template's missing slot, reported at mount
    const [stage] = page.outlet.children;
    const input = stage.querySelector('input');
    const count = stage.querySelector('[data-text]');
    socket.receive({
      t: 'run', seq: 2, stage: 's1',
      do: [
        { do: 'focus', at: 'input' },
        { do: 'title', text: 'Night Ferry' },
        { do: 'add-class', class: 'lit', at: '[data-text]' },
        { do: 'copy', text: 'lot-6' },
        { do: 'toggle-class', class: 'lit', at: '[data-text]' },
        { do: 'toggle-class', class: 'open', at: 'input' },
        { do: 'focus', at: 'nav' },
        { do: 'fly', at: 'input' },
        { do: 'toString', at: 'input' }, // a name every object inherits is not a command
        { do: 'set-attr', attr: 'aria-label', values: ['Amount'], at: 'input' },
        { do: 'toggle-attr', attr: 'aria-expanded', values: ['true', 'false'], at: 'input' },
        { do: 'toggle-attr', attr: 'aria-expanded', values: ['true', 'false'], at: 'input' },
        { do: 'toggle-attr', attr: 'aria-expanded', values: ['true', 'false'], at: 'input' },
      ],
    });
    assert.equal(input.getAttribute('aria-label'), 'Amount');
    assert.equal(input.getAttribute('aria-expanded'), 'true', 'unset, then true, false, true');
    assert.equal(document.activeElement, input);
    assert.equal(document.title, 'Night Ferry');
    assert.equal(count.classList.contains('lit'), false, 'added, then toggled off');
    assert.equal(input.classList.contains('open'), true);
    assert.deepEqual(copied, ['lot-6']);
    assert.deepEqual(errors.splice(0), [
      'footlight: stage "s1": no element "nav" for the command "focus"',
      'footlight: stage "s1": unknown command "fly"',
      'footlight: stage "s1": unknown command "toString"',
    ]);
    assert.equal(window.footlight.state().lastSeq, 2, 'a state message, in seq order');

    // Declared on an event: the page runs it; the page's alone sends nothing, the other is sent too.
    socket.receive({
      t: 'mount', seq: 3, stage: 's2', template: 'demo', place: 'push', url: '/more', doc: { count: 1, name: '', rows: [] },
      events: { increment: { run: [{ do: 'toggle-class', class: 'open', at: 'ol' }], local: true }, name: { run: [{ do: 'title', text: 'Typing' }] } },
    });
    const pushed = page.outlet.children[1];
    socket.sent.splice(0);
    pushed.querySelector('[data-on-click]').dispatch('click');
    assert.equal(pushed.querySelector('ol').classList.contains('open'), true);
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event'), [], 'the page alone');
    assert.equal(pushed.querySelector('[data-on-click]').getAttribute('aria-busy'), null, 'nothing awaits the server');
    pushed.querySelector('input').value = 'x';
    pushed.querySelector('input').dispatch('input');
    assert.equal(document.title, 'Typing');
    assert.deepEqual(socket.sent.filter((m) => m.t === 'event').map((m) => m.name), ['name']);
    // A stage that set the title gives it back when it goes.
    socket.receive({ t: 'unmount', seq: 4, stage: 's2' });
    assert.equal(document.title, 'Night Ferry');
  });
});
