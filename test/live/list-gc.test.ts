/**
 * Collection of the live synchronization event list (PLDI'07 §5.4; docs/RUNTIME.md "Memory"): with few live Infos,
 * the list's live cells stay bounded however many synchronization events a run makes, and the verdicts through
 * partially-eager evaluated locksets, the walk cache and the collections of a thread alone are the uncollected list's.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { ROOT, runReport } from '../helpers/helpers.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'runtime', 'list-gc.mjs');
/**
 * The main thread alone over many bit-locked buckets (after a worker's walk and join, with `joined`), then two workers
 * (test/fixtures/runtime/list-gc-alone.mjs). Run with `GOLDILOCKS_ALONE=0` ({@link CHECKED_ALONE}) for the
 * collections: by default the main thread alone skips its checks and appends no cells (src/live/alone.ts).
 */
const ALONE = join(ROOT, 'test', 'fixtures', 'runtime', 'list-gc-alone.mjs');
/** Two workers storing one word per item while the main thread waits (test/fixtures/runtime/list-gc-claims.mjs). */
const CLAIMS = join(ROOT, 'test', 'fixtures', 'runtime', 'list-gc-claims.mjs');
const LIMIT = { timeout: 300_000 };
/** The main thread's accesses checked and recorded while it alone runs (src/live/alone.ts). */
const CHECKED_ALONE = { GOLDILOCKS_ALONE: '0' };
/**
 * `EAGER_MIN` of src/live/memory/state.ts: Goldilocks keeps 2 × EAGER_MIN + one chunk (4096) live cells when it
 * collects, and the other thread's cells appended while a collection runs: since the collection waits until the
 * Atomics operation that made it due has unlocked its word (src/live/intercept/atomics.ts), the other thread's
 * operations on that word no longer wait for it, so up to one more EAGER_MIN is allowed for them (measured peaks
 * 147,456 and 159,744).
 */
const GOLDILOCKS_PEAK = 3 * (1 << 16) + 4096;

async function run(detector: string, mode: string, n: number): Promise<JsonReport> {
  const { report, stdout } = await runProgram(detector, [FIXTURE, mode, String(n)]);
  assert.match(stdout, /y = 42/);
  return report;
}

/**
 * `goldilocks run --on-race=report --detector D -- node ARGS`, with `env` added to its environment: its JSON report
 * and output (exit status 0).
 */
const runProgram = (detector: string, args: string[], env: Record<string, string> = {}) =>
  runReport(['--detector', detector, ...args], env);

/** The racy variables of a report. */
const racy = (r: JsonReport) => [...new Set(r.races.map((x) => x.variable))].sort();

/** The race of `separate` (y at byte 32), whichever of A's write and B's read came first. */
function assertRaceOnY(j: JsonReport): void {
  assert.ok(j.races.length >= 1);
  for (const r of j.races) assert.match(r.variable, /^sab#\d+\+32$/);
}

describe('the live synchronization event list is collected', () => {
  test(
    'goldilocks: bounded live cells, and the old Info still happens before through its explicit lockset',
    LIMIT,
    async () => {
      const j = await run('goldilocks', 'shared', 200_000);
      const s = j.stats;
      assert.ok(s.syncCells >= 400_000, `${s.syncCells} cells`);
      assert.ok(s.listPeak <= GOLDILOCKS_PEAK, `peak ${s.listPeak} live cells`);
      assert.ok(s.cellsCollected >= s.syncCells - GOLDILOCKS_PEAK, `${s.cellsCollected} collected`);
      assert.ok(
        s.eagerRuns >= 2 && s.eagerInfos >= 2,
        `${s.eagerRuns} eager runs, ${s.eagerInfos} Infos moved`,
      );
      assert.equal(j.summary.racePairs, 0);
    },
  );

  test(
    'goldilocks: the race on the old Info is found through its explicit lockset (and the walk is cached)',
    LIMIT,
    async () => {
      const j = await run('goldilocks', 'separate', 200_000);
      assert.ok(j.stats.eagerRuns >= 2, `${j.stats.eagerRuns} eager runs`);
      assert.ok(j.stats.walksCached >= 1, `${j.stats.walksCached} walks cached`);
      assert.equal(j.summary.racePairs, 1);
      assert.match(j.races[0].variable, /sab#\d+\+32/);
    },
  );

  test(
    "goldilocks, one thread alone: collections give its Infos its own lockset at the cut; the races after the workers start are the peers'",
    LIMIT,
    async () => {
      const n = String(150_000); // 300,000 atomic operations before any worker: several collections
      const { report: j, stdout } = await runProgram('goldilocks', [ALONE, n], CHECKED_ALONE);
      assert.match(stdout, /^sums (\d+) \1$/m);
      assert.ok(j.stats.eagerAlone >= 2, `${j.stats.eagerAlone} collections alone`);
      assert.ok(j.stats.eagerInfos >= 1000, `${j.stats.eagerInfos} Infos moved`);
      // z (flags[0]) and w (flags[1]): the buckets, written alone before the workers' fork, race with nothing
      assert.deepEqual(
        racy(j).map((v) => v.replace(/^sab#\d+/, 'sab')),
        ['sab+0', 'sab+4'],
      );
      assert.deepEqual(racy(j), racy((await runProgram('fasttrack', [ALONE, n], CHECKED_ALONE)).report));
      // by default the main thread alone checks nothing and appends no cells: no collection, the same races
      const byDefault = (await runProgram('goldilocks', [ALONE, n])).report;
      assert.equal(byDefault.stats.eagerRuns, 0);
      assert.ok(byDefault.stats.alone >= 300_000, `${byDefault.stats.alone} skipped`);
      assert.deepEqual(
        racy(byDefault).map((v) => v.replace(/^sab#\d+/, 'sab')),
        ['sab+0', 'sab+4'],
      );
    },
  );

  test(
    "goldilocks, after a join: the main thread's Infos hold every live thread and are not evaluated; the races are the peers'",
    LIMIT,
    async () => {
      const args = [ALONE, String(150_000), 'joined'];
      const { report: j, stdout } = await runProgram('goldilocks', args, CHECKED_ALONE);
      assert.match(stdout, /^sums (\d+) \1$/m);
      assert.equal(j.stats.eagerAlone, 0);
      assert.ok(j.stats.eagerSaturated >= 1000, `${j.stats.eagerSaturated} starts saturated`);
      // z, w as above, and r (flags[2]): read by the main thread while P runs, written by P after its collections
      assert.deepEqual(
        racy(j).map((v) => v.replace(/^sab#\d+/, 'sab')),
        ['sab+0', 'sab+4', 'sab+8'],
      );
      assert.deepEqual(racy(j), racy((await runProgram('fasttrack', args, CHECKED_ALONE)).report));
    },
  );

  test(
    "goldilocks: a worker's starts over thousands of words collect as one chain, in shadow memory linear in them; the race across the collections is the peers'",
    LIMIT,
    async () => {
      const n = 150_000;
      const args = [CLAIMS, String(n)];
      const { report: j, stdout } = await runProgram('goldilocks', args, CHECKED_ALONE);
      assert.match(stdout, /^sum 599994/m);
      const s = j.stats;
      assert.ok(
        s.eagerRuns >= 1 && s.cellsCollected > 0,
        `${s.eagerRuns} collections, ${s.cellsCollected} cells`,
      );
      // the workers' Infos, one per word stored, evaluated as lanes of their owners' chains
      assert.ok(s.eagerChained >= n, `${s.eagerChained} chained starts`);
      // a record per Info holding the words stored after it would take n² / 2 keys between the collections (GiB);
      // Infos and chains take some 130 bytes per item
      assert.ok(s.shadowKiB * 1024 <= 256 * n, `${s.shadowKiB} KiB of shadow memory`);
      // the last item's word (byte 4 × 149,999), read by the main thread before a worker stored it
      assert.deepEqual(
        racy(j).map((v) => v.replace(/^sab#\d+/, 'sab')),
        ['sab+599996'],
      );
      assert.deepEqual(racy(j), racy((await runProgram('fasttrack', args, CHECKED_ALONE)).report));
    },
  );

  test('fasttrack: the peers keep no old cells', LIMIT, async () => {
    const j = await run('fasttrack', 'separate', 100_000);
    assert.ok(j.stats.listPeak <= 2 * 4 * 4096 + 4096, `peak ${j.stats.listPeak} live cells`);
    assert.ok(j.stats.cellsCollected >= j.stats.syncCells - 3 * 4 * 4096);
    assertRaceOnY(j);
  });
});
