// Tests for the runtime as the server bundles it (StaticAssets.runtimeFiles): its size.
// Run with scripts/test-runtime (node --test); Node 20+, no packages.
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { folder } = require('./support/runtime.js');
const { PAGE } = require('./support/fake-browser.js');

describe('the bundle', () => {
  test('size: the bundle, every feature with the upload hook, under 14 KB minified and gzipped (the budget of issue 31)', (t) => {
    const zlib = require('node:zlib');
    const { execFileSync } = require('node:child_process');
    // The bundle's files in its order (StaticAssets.runtimeFiles in Swift).
    const order = [...PAGE.map(([file]) => file), 'upload.js'];
    const files = order.map((file) => path.join(folder, file));
    const source = files.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    // Comments and indentation stripped: a rough upper bound that needs no tools.
    const stripped = source
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/\s\/\/\s.*$/gm, '') // a comment after code (" // "; never in the runtime's strings)
      .replace(/^\s+/gm, '')
      .replace(/\n+/g, '\n');
    // Minified (esbuild, where installed: apt-get install esbuild), the budget's own measure.
    // Measured as one bundle (the files concatenated, then minified), as scripts/bench runtime does.
    let minified;
    try {
      minified = execFileSync('esbuild', ['--minify', '--log-level=error'], { input: files.map((file) => fs.readFileSync(file, 'utf8')).join(''), encoding: 'utf8' });
    } catch {
      // Without esbuild, a rough upper bound: about 2.5 KB above the minified size today.
      const roughly = zlib.gzipSync(stripped, { level: 9 }).length;
      assert.ok(roughly < 17 * 1024, `${roughly} bytes gzipped with comments and indentation stripped`);
      return t.skip('esbuild is not installed: checked the rough bound only');
    }
    // GNU gzip -9, the same measure as the benchmark (zlib's output differs by a few bytes).
    const gzipped = execFileSync('gzip', ['-9', '-c'], { input: minified }).length;
    assert.ok(gzipped <= 14336, `${gzipped} bytes minified and gzipped`);
  });
});
