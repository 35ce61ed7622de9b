/**
 * `goldilocks check` compiles its hot code once (issue 24 §3, docs/ARCHITECTURE.md "Tables that grow"): no growth of
 * a table invalidates code V8 has optimized, and the parser's loop is not sent back to unoptimized code at each
 * batch's end. Counted with `--trace-deopt` under `--single-threaded` (compilation on the main thread, so that what
 * is optimized when a table grows does not depend on the machine's load), on a trace whose variables, locations,
 * synchronization list and Info records keep growing to its end.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CLI, tempFile } from '../helpers/helpers.js';

/**
 * 8 threads; a new variable every 16 lines and a new location every 64, to the end; each thread reads an early
 * variable again from time to time (its Info keeps the synchronization list's head, so the ring grows); lock-protected
 * writes; one race at the end.
 */
const lines = ['T0|w(z0)|1'];
for (let t = 1; t <= 8; t++) lines.push(`T0|fork(T${t})|2`);
for (let i = 0; i < 400_000; i++) {
  const t = 1 + (i % 8);
  if (i % 400 === 0) lines.push(`T${t}|acq(L${i % 7})|3`, `T${t}|w(s${i % 7})|4`, `T${t}|rel(L${i % 7})|5`);
  else if (i % 1000 === 1) lines.push(`T${t}|r(z0)|6`);
  else lines.push(`T${t}|${i % 5 === 0 ? 'w' : 'r'}(o${t}_${i >> 4}.f${i % 3})|${10 + (i >> 6)}`);
}
lines.push('T1|w(x)|7', 'T2|w(x)|8');
const TRACE = tempFile('growing.std', `${lines.join('\n')}\n`);

describe('goldilocks check: hot code compiled once', () => {
  it('no optimized code invalidated by a growing table, the parser loop deoptimized at most twice', () => {
    const args = [
      '--single-threaded',
      '--trace-deopt',
      CLI,
      'check',
      '--no-color',
      '--pipeline',
      'off',
      TRACE,
    ];
    const options = {
      encoding: 'utf8' as const,
      timeout: 120_000,
      maxBuffer: 1 << 28,
      env: { ...process.env, GOLDILOCKS_CACHE: mkdtempSync(path.join(tmpdir(), 'goldilocks-recompile-')) },
    };
    // the check's code-cache entry written first (src/cli/check-bundle.ts), as after a user's first check: the
    // check counted is the one every later check is (writing an entry invalidates code: docs/ARCHITECTURE.md,
    // "Tables that grow")
    spawnSync(process.execPath, args, options);
    const r = spawnSync(process.execPath, args, options);
    assert.equal(r.error, undefined, `goldilocks check did not exit: ${r.error}`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /1 racy variables?/, r.stdout);
    const log = r.stdout + r.stderr;
    // f6a3fb2: parseSimpleLines and enqueue invalidated, parse deoptimized 21 times
    const invalidated = [...log.matchAll(/marking dependent code .*?<SharedFunctionInfo (\w+)>/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(invalidated, [], `optimized code invalidated: ${invalidated.join(', ')}`);
    const parseDeopts = [...log.matchAll(/deoptimizing [^<]*<JSFunction parse /g)].length;
    assert.ok(parseDeopts <= 2, `StdParser.parse deoptimized ${parseDeopts} times`);
  });
});
