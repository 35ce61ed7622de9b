/**
 * The main thread alone (src/live/alone.ts): once every worker is joined, its accesses and atomic operations are
 * neither checked nor recorded, and append no cells; the verdicts are those of the runs that check them
 * (`GOLDILOCKS_ALONE=0`) and of FastTrack's, and a thread still running keeps the main thread's accesses checked.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { ROOT, runReport } from '../helpers/helpers.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'runtime', 'alone.mjs');
const LIMIT = { timeout: 300_000 };
const N = 20_000;

/** `goldilocks run --on-race=report --detector D` of the fixture in `mode`, with `env`: its report and output. */
const run = (detector: string, mode: string, env: Record<string, string> = {}) =>
  runReport(['--detector', detector, FIXTURE, mode, String(N)], env);

/** The racy variables of a report, their buffer's number dropped. */
const racy = (r: JsonReport) =>
  [...new Set(r.races.map((x) => x.variable.replace(/^sab#\d+/, 'sab')))].sort();

describe('the main thread alone', () => {
  test(
    'after the joins, skips its checks and cells; the race after the next start is found as without that',
    LIMIT,
    async () => {
      const { report, stdout } = await run('goldilocks', 'results');
      assert.match(stdout, /^sum 399980000, C saw 199990005$/m);
      // the N atomic loads skipped; the N plain reads of data and the write of x take the fast path's covered case
      // (counted as same-epoch hits, as a private buffer's)
      assert.ok(report.stats.alone >= N, `${report.stats.alone} skipped`);
      assert.ok(report.stats.sameEpoch >= N + 1, `${report.stats.sameEpoch} same-epoch hits`);
      assert.deepEqual(racy(report), ['sab+4']); // y
      const checked = await run('goldilocks', 'results', { GOLDILOCKS_ALONE: '0' });
      assert.equal(checked.report.stats.alone, 0);
      assert.ok(
        report.stats.accesses + 2 * N + 1 <= checked.report.stats.accesses,
        `${report.stats.accesses} accesses checked against ${checked.report.stats.accesses}`,
      );
      assert.ok(
        report.stats.syncCells + N <= checked.report.stats.syncCells,
        `${report.stats.syncCells} cells against ${checked.report.stats.syncCells}`,
      );
      assert.deepEqual(racy(checked.report), racy(report));
      const peer = await run('fasttrack', 'results');
      assert.deepEqual(racy(peer.report), racy(report));
    },
  );

  test(
    'a wait begun alone and woken by a worker started later: the wake is still an edge',
    LIMIT,
    async () => {
      const { report, stdout } = await run('goldilocks', 'wait-async');
      assert.match(stdout, /^woken: ok\ndata\[0\] = 42$/m);
      assert.ok(report.stats.alone >= 1, `${report.stats.alone} skipped`);
      assert.deepEqual(racy(report), ['sab+4']); // data[1], written after the notify; not data[0]
      assert.deepEqual(
        racy((await run('goldilocks', 'wait-async', { GOLDILOCKS_ALONE: '0' })).report),
        racy(report),
      );
    },
  );

  test(
    "is not alone while a worker runs: its unordered read races with the worker's write",
    LIMIT,
    async () => {
      const { report, stdout } = await run('goldilocks', 'running');
      assert.match(stdout, /^joined D$/m);
      assert.deepEqual(racy(report), ['sab+8']); // r
      assert.deepEqual(racy((await run('fasttrack', 'running')).report), racy(report));
    },
  );
});
