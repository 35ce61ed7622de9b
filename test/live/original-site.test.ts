/**
 * A caller frame's site in the program's own coordinates (`originalSite`, src/live/sites.ts): through the file's
 * source map, naming the map's source file with that file's line and column — a library compiled from TypeScript
 * names its `.ts` line, never the `.js` file with the `.ts` line; a file without a map keeps its own position.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { SourceMap } from 'magic-string';
import { originalSite } from '../../src/live/sites.js';
import { tempPath } from '../helpers/helpers.js';

test('a library frame is named by its source map: the source file with its own line and column', () => {
  const dir = tempPath('original-site');
  const lib = join(dir, 'lib.js');
  // line 3, column 1 of lib.js comes from line 10, column 5 of lib.ts (all 0-based in the map)
  const map = new SourceMap({
    file: 'lib.js',
    sources: ['lib.ts'],
    sourcesContent: [null],
    names: [],
    mappings: [[], [], [[0, 0, 9, 4]]],
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    lib,
    `'use strict';\n// a compiled library\nmodule.exports = 1;\n//# sourceMappingURL=${map.toUrl()}\n`,
  );
  const enabled = process.sourceMapsEnabled;
  process.setSourceMapsEnabled(true);
  try {
    createRequire(import.meta.url)(lib);
    assert.equal(originalSite(pathToFileURL(lib).href, 3, 1), `${join(dir, 'lib.ts')}:10:5`);
    assert.equal(originalSite(lib, 3, 1), `${join(dir, 'lib.ts')}:10:5`);
    const plain = join(dir, 'plain.js');
    writeFileSync(plain, 'module.exports = 2;\n');
    createRequire(import.meta.url)(plain);
    assert.equal(originalSite(plain, 1, 1), `${plain}:1:1`);
  } finally {
    process.setSourceMapsEnabled(enabled);
  }
});
