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

  // That they hold every server type of the wire is the Swift side's test (TranscriptReplayTests, against
  // the Swift table, which WireConstantsTests reads against constants.js): no list of types to keep here.
  test('there are transcripts, and every server message type they hold is a wire name of constants.js', () => {
    assert.ok(all.length >= 4);
    const types = new Set(all.flatMap((transcript) => transcript.steps.filter((step) => step.server).map((step) => step.server[K.T])));
    assert.ok(types.size >= 11, [...types].join(' '));
    for (const type of types) assert.equal(K[String(type).toUpperCase()], type, `"${type}" is not a wire name`);
  });

  for (const transcript of all) {
    test(`${transcript.file}: ${transcript.about}`, () => {
      const { opened } = replay(transcript);
      const opens = transcript.steps.filter((step) => step.server?.[K.T] === K.OPEN && !step.lost);
      assert.deepEqual(opened, opens.map((step) => step.server[K.URL]));
    });
  }
});
