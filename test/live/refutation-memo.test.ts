/**
 * The refutation memo (`Shadow.refute`; docs/RUNTIME.md "The check"): after a full walk finds that an access of u does
 * not happen before this thread, its lockset, carried forward over the cells appended since, decides the checks of u's
 * later accesses without a walk of their own, and only those it still refutes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runReport } from '../helpers/helpers.js';

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'runtime', name);
const N = 256;

describe('the refutation memo', () => {
  test('every racing read of a batch is reported, the list walked about once', {
    timeout: 120_000,
  }, async () => {
    const { stdout, report: j } = await runReport([fixture('refute-batch.mjs'), String(N)]);
    assert.match(stdout, new RegExp(`sum = ${N}`));
    assert.equal(j.summary.racyEvents, N);
    const s = j.stats;
    assert.equal(s.lockset, N);
    // one walk of the whole list, then each check carries the memo over the reader's one new cell (N walks of
    // 300 cells and more without it)
    assert.ok(s.walkCells <= s.syncCells + 2 * N, `${s.walkCells} cells walked, ${s.syncCells} in the list`);
  });

  test('a later access ordered by a lock the carried lockset takes the reader in through is no race', {
    timeout: 120_000,
  }, async () => {
    const { stdout, report: j } = await runReport([fixture('refute-later.mjs')]);
    assert.match(stdout, /read 1 2/);
    assert.equal(j.summary.racePairs, 1);
    assert.equal(j.races[0].variable, 'sab#2+0'); // x[0]; x[1] is handed over by the lock
    const line =
      readFileSync(fixture('refute-later.mjs'), 'utf8').split('\n').indexOf('    const a = x[0]; // race') +
      1;
    assert.notEqual(line, 0);
    assert.match(j.races[0].current.location ?? '', new RegExp(`refute-later\\.mjs:${line}:`));
  });

  test('an earlier access than the refuted one is walked for', { timeout: 120_000 }, async () => {
    const { stdout, report: j } = await runReport([fixture('refute-earlier.mjs')]);
    assert.match(stdout, /read 1 2/);
    assert.equal(j.summary.racePairs, 1);
    assert.equal(j.races[0].variable, 'sab#2+8'); // x[1]; x[0] is handed over by the lock
  });
});
