/** Assertions on V8's code-cache entries (`src/node/code-cache.ts`) in a cache directory, shared by test/node/. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The code cache's entries in `cache` (the transform cache's entries are named by their key alone). */
export const codeCacheEntries = (cache: string): string[] =>
  readdirSync(cache).filter((f) => f.startsWith('code-') && !f.endsWith('.tmp'));

/**
 * Runs `run`, then asserts that the code cache's entries in `cache` are the ones it had before, each read, not
 * written again (same bytes, same modification time), and none added.
 */
export function assertEntriesRead(cache: string, run: () => void): void {
  const before = codeCacheEntries(cache);
  const files = before.map((f) => path.join(cache, f));
  const contents = files.map((f) => readFileSync(f));
  const mtimes = files.map((f) => statSync(f).mtimeMs);
  run();
  assert.deepEqual(codeCacheEntries(cache), before);
  assert.deepEqual(
    files.map((f) => readFileSync(f)),
    contents,
    'read, not written again',
  );
  assert.deepEqual(
    files.map((f) => statSync(f).mtimeMs),
    mtimes,
  );
}
