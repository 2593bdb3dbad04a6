// Tests for events.js's pure part: event gates with a fake clock, control and form values.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load, fakeClock } = require('./support/runtime.js');
const { gate, controlValue, formValue } = load('events.js');

/** A gate with a fake clock that records [time, value] for each emit. */
function recordedGate(options) {
  const clock = fakeClock();
  const sent = [];
  const g = gate(options, clock, (value) => sent.push([clock.now(), value]));
  return { clock, sent, g };
}

describe('event gates', () => {
  test('no options: every value goes at once', () => {
    const { g, sent } = recordedGate(undefined);
    g.push('a');
    g.push('b');
    assert.deepEqual(sent, [
      [0, 'a'],
      [0, 'b'],
    ]);
    assert.equal(g.pending, false);
  });

  test('debounce: only the last value, its delay after the last push', () => {
    const { g, sent, clock } = recordedGate({ debounce: 300 });
    g.push('a');
    clock.advance(100);
    g.push('ab');
    clock.advance(299);
    assert.deepEqual(sent, []);
    assert.equal(g.pending, true);
    clock.advance(1);
    assert.deepEqual(sent, [[400, 'ab']]);
    assert.equal(g.pending, false);
    assert.equal(clock.pendingTimers, 0);
  });

  test('debounce: flush (blur, or a click in the stage) sends the waiting value now, once', () => {
    const { g, sent, clock } = recordedGate({ debounce: 300 });
    g.push('abc');
    clock.advance(50);
    g.flush();
    assert.deepEqual(sent, [[50, 'abc']]);
    clock.advance(1000);
    g.flush();
    assert.deepEqual(sent, [[50, 'abc']], 'nothing waits, nothing more is sent');
  });

  test('throttle: the first at once, then at most one per interval with the latest value', () => {
    const { g, sent, clock } = recordedGate({ throttle: 100 });
    g.push(1);
    clock.advance(10);
    g.push(2);
    clock.advance(10);
    g.push(3);
    assert.deepEqual(sent, [[0, 1]]);
    clock.advance(80);
    assert.deepEqual(sent, [
      [0, 1],
      [100, 3],
    ]);
    clock.advance(50);
    g.push(4);
    clock.advance(49);
    assert.equal(sent.length, 2);
    clock.advance(1);
    assert.deepEqual(sent.at(-1), [200, 4]);
    clock.advance(500);
    g.push(5);
    assert.deepEqual(sent.at(-1), [700, 5], 'after a quiet interval the next value goes at once');
  });

  test('throttle: a steady stream goes out once per interval', () => {
    const { g, sent, clock } = recordedGate({ throttle: 100 });
    for (let t = 0; t < 1000; t += 10) {
      g.push(t);
      clock.advance(10);
    }
    clock.advance(100);
    const times = sent.map(([time]) => time);
    assert.deepEqual(times, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    assert.deepEqual(sent.at(-1), [1000, 990], 'the latest value is never lost');
  });

  test('commit on blur: nothing until flush, then the latest value', () => {
    const { g, sent, clock } = recordedGate({ commit: 'blur' });
    g.push('a');
    g.push('ab');
    clock.advance(60_000);
    assert.deepEqual(sent, []);
    assert.equal(g.pending, true);
    g.flush();
    assert.deepEqual(sent, [[60_000, 'ab']]);
    g.flush();
    assert.equal(sent.length, 1);
  });
});

describe('event values', () => {
  test('a control: checked for a checkbox, value otherwise', () => {
    assert.equal(controlValue({ type: 'checkbox', checked: true, value: 'on' }), true);
    assert.equal(controlValue({ type: 'text', value: 'hi' }), 'hi');
    assert.equal(controlValue({ type: 'radio', checked: true, value: 'b' }), 'b');
    assert.equal(controlValue({ type: 'select-one', value: 'x' }), 'x');
  });

  test('a form: its named, enabled fields; buttons, files, unnamed controls and unchecked radios left out', () => {
    const form = {
      elements: [
        { name: 'email', type: 'email', value: 'a@b.c' },
        { name: 'password', type: 'password', value: 'secret' },
        { name: 'agree', type: 'checkbox', checked: false, value: 'on' },
        { name: 'plan', type: 'radio', checked: false, value: 'free' },
        { name: 'plan', type: 'radio', checked: true, value: 'pro' },
        { name: 'size', type: 'radio', checked: false, value: 's' },
        { name: 'old', type: 'text', value: 'x', disabled: true },
        { name: 'go', type: 'submit', value: 'Go' },
        { name: 'upload', type: 'file', value: '' },
        { name: '', type: 'text', value: 'unnamed' },
        { name: 'group', type: 'fieldset' },
        { name: '__proto__', type: 'text', value: 'plain data' },
      ],
    };
    const fields = formValue(form);
    assert.equal(Object.getPrototypeOf(fields), null);
    // A named fieldset has no value: it is left out of the JSON sent.
    assert.deepEqual(JSON.parse(JSON.stringify(fields)), JSON.parse('{"email":"a@b.c","password":"secret","agree":false,"plan":"pro","__proto__":"plain data"}'));
    assert.equal(JSON.stringify(fields), '{"email":"a@b.c","password":"secret","agree":false,"plan":"pro","__proto__":"plain data"}');
  });
});
