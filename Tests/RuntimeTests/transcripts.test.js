// The protocol transcripts (Tests/Fixtures/protocol), replayed by the runtime as the Swift tests
// replay them through the session machine and ClientMirror: the same conversation on both sides.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('./support/runtime.js');
const { transcripts, replay } = require('./support/transcripts.js');
const K = load('constants.js');

describe('protocol transcripts', () => {
  const all = transcripts();

  test('there are transcripts, and they hold every message type the runtime receives', () => {
    assert.ok(all.length >= 4);
    const types = new Set(all.flatMap((transcript) => transcript.steps.filter((step) => step.server).map((step) => step.server[K.T])));
    const received = [K.JOINED, K.MOUNT, K.UNMOUNT, K.OPEN, K.RUN, K.PATCH, K.ADDRESS, K.ACK, K.ERROR, K.PONG, K.BYE];
    assert.deepEqual([...types].sort(), received.sort());
  });

  for (const transcript of all) {
    test(`${transcript.file}: ${transcript.about}`, () => {
      const { opened } = replay(transcript);
      const opens = transcript.steps.filter((step) => step.server?.[K.T] === K.OPEN && !step.lost);
      assert.deepEqual(opened, opens.map((step) => step.server[K.URL]));
    });
  }
});
