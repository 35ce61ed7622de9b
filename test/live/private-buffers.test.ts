/**
 * Private buffers (docs/RUNTIME.md "Private buffers"): the accesses of a thread to a SharedArrayBuffer it made and
 * has not sent since are not checked — element accesses, bulk methods, DataView — and once it sent anything, they
 * are; recorded runs and `--detector eraser` check them all. Read from the `checks` counter of the JSON report of
 * `goldilocks run` on one-thread programs (no other thread: no race either way), run with `GOLDILOCKS_ALONE=0`: by
 * default the main thread alone checks nothing (docs/RUNTIME.md "The main thread alone").
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLI, tempFile, tempPath } from '../helpers/helpers.js';

/** Fills a fresh buffer by elements, `fill`, `set` and a DataView, after `before` (source text). */
const program = (before: string): string =>
  tempFile(
    'private.mjs',
    `const a = new Int32Array(new SharedArrayBuffer(4096));\n${before}\n` +
      'for (let i = 0; i < a.length; i++) a[i] = i;\n' +
      'a.fill(1, 0, 8);\na.set([1, 2], 16);\nnew DataView(a.buffer).setInt32(64, 5);\n' +
      'let s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i];\nconsole.log(s);\n',
  );

/** The `checks` counter of `goldilocks run ...args program`, with `GOLDILOCKS_ALONE=0` unless `alone`. */
function checks(file: string, args: string[] = [], alone = false): number {
  const report = tempPath('private.json');
  const r = spawnSync(process.execPath, [CLI, 'run', '--report', report, ...args, file], {
    encoding: 'utf8',
    env: alone ? process.env : { ...process.env, GOLDILOCKS_ALONE: '0' },
  });
  assert.equal(r.status, 0, r.stderr);
  const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: { checks: number } }).stats;
  return stats.checks;
}

test('a buffer its thread never sent: no access checked', { timeout: 120_000 }, () => {
  assert.equal(checks(program('')), 0);
});

test('a buffer made before a send of its thread: its accesses after the send are checked', {
  timeout: 120_000,
}, () => {
  const sent = program('new MessageChannel().port1.postMessage(0);');
  assert.ok(checks(sent) > 0);
  assert.equal(checks(sent, [], true), 0); // the main thread alone
  assert.ok(checks(program("(await import('node:worker_threads')).setEnvironmentData('k', 1);")) > 0);
});

test('recorded runs and --detector eraser check a private buffer', { timeout: 120_000 }, () => {
  const file = program('');
  assert.ok(checks(file, ['--record', tempPath('private.trace')]) > 0);
  assert.ok(checks(file, ['--detector', 'eraser']) > 0);
});
