/**
 * The thread's set-up compiled with V8's code cache (`src/node/code-cache.ts`, issue 24 §2; the build's bundle
 * `dist/node/setup.js`, `npm test` builds first): the first run writes one entry into the transform cache's
 * directory, a later run reads it (the entry stays as it was) and finds the same race, an entry V8 rejects (cut
 * short) is written again whole, with the cache off the race is still found, and a copy of the build elsewhere
 * sharing the cache names its own files in stacks, not the first copy's (V8 keeps the script's name in the data).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { assertEntriesRead, codeCacheEntries as entries } from '../helpers/code-cache.js';
import { CLI, ROOT, tempPath } from '../helpers/helpers.js';

const PROGRAM = path.join(ROOT, 'test', 'programs', 'barrier-sync-missing.mjs'); // expect: race
const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-code-cache-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const LIMIT = { timeout: 120_000 };

/** `goldilocks run --on-race=report` of {@link PROGRAM} with GOLDILOCKS_CACHE = `cache`: its racy variables. */
function racyVariables(cache: string): number {
  const report = tempPath('report.json');
  const r = spawnSync(process.execPath, [CLI, 'run', '--on-race=report', '--report', report, PROGRAM], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, GOLDILOCKS_CACHE: cache },
  });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(readFileSync(report, 'utf8')) as JsonReport).summary.racyVariables;
}

describe('code cache of the thread set-up', () => {
  const cache = path.join(dir, 'cache');

  test('the first run writes one entry, a later run reads it and finds the same race', LIMIT, () => {
    assert.ok(readFileSync(path.join(ROOT, 'dist', 'node', 'setup.js'), 'utf8').startsWith('// bundled'));
    const first = racyVariables(cache);
    assert.ok(first > 0, 'the program races');
    assert.equal(entries(cache).length, 1, `one entry: ${entries(cache)}`);
    assertEntriesRead(cache, () => assert.equal(racyVariables(cache), first));
  });

  test('an entry V8 rejects is written again whole', LIMIT, () => {
    const [entry] = entries(cache);
    const file = path.join(cache, entry);
    const whole = readFileSync(file);
    const cut = whole.subarray(0, whole.length >> 1);
    writeFileSync(file, cut);
    assert.ok(racyVariables(cache) > 0);
    const again = readFileSync(file);
    assert.ok(again.length > cut.length, 'written again');
    assertEntriesRead(cache, () => assert.ok(racyVariables(cache) > 0));
  });

  test('with the cache off, the same verdict', LIMIT, () => {
    assert.ok(racyVariables('off') > 0);
  });
});

describe('code cache shared by two copies of the build', () => {
  test("each copy's stacks name its own set-up, never the other's", LIMIT, () => {
    const cache = path.join(dir, 'shared');
    const copy = path.join(dir, 'copy');
    cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    // node's report of a syntax error lists the loader's frames: the set-up's own must not be among them
    const program = path.join(ROOT, 'test', 'fixtures', 'cli', 'unparsable', 'syntax-error.cjs');
    const stderr = (root: string): string => {
      const r = spawnSync(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'run', program], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, GOLDILOCKS_CACHE: cache },
      });
      assert.equal(r.status, 1, r.stderr);
      return r.stderr;
    };
    const original = stderr(ROOT);
    assert.equal(entries(cache).length, 1);
    const copied = stderr(copy);
    assert.doesNotMatch(copied, /setup\.js/);
    assert.equal(copied, original);
    assert.equal(stderr(copy), original, 'read from its own entry');
  });
});
