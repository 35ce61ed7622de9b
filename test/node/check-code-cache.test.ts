/**
 * `goldilocks check` from its bundle compiled with V8's code cache (`src/cli/check-bundle.ts`, `src/node/code-cache.ts`,
 * issue 24 §3; the build's `dist/cli/check-bundle.js`, `npm test` builds first): the first check writes one entry into
 * the cache's directory, a later one reads it (the entry stays as it was) and prints the same report, an entry V8
 * rejects (cut short) is written again whole, a check in a parser thread writes that thread's entry too, and all of
 * them print what the modules themselves print (the cache off); the parser thread and the calling thread require
 * `dist/node/code-cache.cjs` rather than importing the ES module.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { assertEntriesRead, codeCacheEntries as entries } from '../helpers/code-cache.js';
import { CLI, ROOT, tempFile } from '../helpers/helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-check-code-cache-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const LIMIT = { timeout: 120_000 };
// two threads writing x unordered (a race), then a lock-protected y
const TRACE = tempFile(
  'check-code-cache.std',
  'T0|w(x)|1\nT1|w(x)|2\nT0|acq(l)|3\nT0|w(y)|4\nT0|rel(l)|5\nT1|acq(l)|6\nT1|r(y)|7\nT1|rel(l)|8\n',
);

/**
 * `goldilocks check --json` of {@link TRACE} with GOLDILOCKS_CACHE = `cache` and the options `options`: its report
 * without the timings.
 */
function check(cache: string, options: string[] = []): string {
  const r = spawnSync(process.execPath, [CLI, 'check', '--json', ...options, TRACE], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, GOLDILOCKS_CACHE: cache },
  });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.stringify(JSON.parse(r.stdout), (k, v) =>
    /^(timeMs|eventsPerSecond)$/.test(k) ? undefined : v,
  );
}

describe('goldilocks check from its bundle with the code cache', () => {
  const cache = path.join(dir, 'cache');
  let modules = '';

  test(
    'the first check writes one entry, a later one reads it; both print what the modules print',
    LIMIT,
    () => {
      assert.ok(
        readFileSync(path.join(ROOT, 'dist', 'cli', 'check-bundle.js'), 'utf8').startsWith('// bundled'),
      );
      modules = check('off');
      assert.match(modules, /"racyVariables":1/);
      assert.equal(check(cache), modules);
      assert.equal(entries(cache).length, 1, `one entry: ${entries(cache)}`);
      assertEntriesRead(cache, () => assert.equal(check(cache), modules));
    },
  );

  test('an entry V8 rejects is written again whole, then read', LIMIT, () => {
    const [entry] = entries(cache);
    const file = path.join(cache, entry);
    const cut = readFileSync(file).subarray(0, 64);
    writeFileSync(file, cut);
    assert.equal(check(cache), modules);
    const again = readFileSync(file);
    assert.ok(again.length > cut.length, 'written again');
    assertEntriesRead(cache, () => assert.equal(check(cache), modules));
  });
});

describe("goldilocks check's parser thread from its bundle with the code cache", () => {
  test('a check in a parser thread writes its entry too, then reads both; same report', LIMIT, () => {
    const cache = path.join(dir, 'threads');
    const modules = check('off', ['--pipeline', 'on']);
    assert.match(modules, /"racyVariables":1/);
    assert.equal(check(cache, ['--pipeline', 'on']), modules);
    assert.equal(entries(cache).length, 2, `the check's and the parser thread's: ${entries(cache)}`);
    assertEntriesRead(cache, () => assert.equal(check(cache, ['--pipeline', 'on']), modules));
  });
});

describe("goldilocks check's parser thread loads no ES module", () => {
  test('its first line requires the CommonJS copy of code-cache.js (scripts/bundle.ts)', LIMIT, () => {
    const r = spawnSync(process.execPath, [CLI, 'check', '--pipeline', 'on', TRACE], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, GOLDILOCKS_CACHE: path.join(dir, 'cjs'), NODE_DEBUG: 'module,esm' },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /Module\._load REQUEST \S*code-cache\.cjs parent: \[worker eval\]/);
    // the calling thread requires it too (cli/main.cts), so no ES module loader stores dist/node/code-cache.js
    assert.match(r.stderr, /Module\._load REQUEST \S*code-cache\.cjs parent: \S*\/dist\/cli\/main\.cjs/);
    assert.doesNotMatch(r.stderr, /Storing \S*\/dist\/node\/code-cache\.js /);
  });
});
