/**
 * A join proves every access of the joined thread in the joiner's happens-before memo (`Shadow.joined`, PLDI'07
 * Figure 5 join; docs/RUNTIME.md "The check"): after a worker's `'exit'`, main's checks of the worker's Infos are
 * decided by the memo, without a lockset walk, however far back and in whatever order of `pos` they are.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runReport } from '../helpers/helpers.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'runtime', 'join-memo.mjs');
const N = 64;

describe('the join memo', () => {
  test("main's reads after the join take no walk", { timeout: 120_000 }, async () => {
    // checked: by default the main thread alone after the join checks nothing (docs/RUNTIME.md "The main thread alone")
    const { stdout, report: j } = await runReport([FIXTURE, String(N)], { GOLDILOCKS_ALONE: '0' });
    assert.match(stdout, new RegExp(`sum = ${(N * (N - 1)) / 2}`));
    assert.equal(j.summary.racePairs, 0);
    const s = j.stats;
    assert.equal(s.walks, 0, `${s.walks} walks`);
    assert.equal(
      s.lockset + s.directTransfer,
      0,
      `${s.lockset} lockset, ${s.directTransfer} direct transfer`,
    );
    assert.ok(s.hbMemo >= N, `${s.hbMemo} decided by the memo`);
    const alone = (await runReport([FIXTURE, String(N)])).report;
    assert.equal(alone.summary.racePairs, 0);
    // main's loop over the worker's writes: one range check, skipped; nothing decided by the memo or walked
    assert.ok(
      alone.stats.alone >= 1 && alone.stats.hbMemo === 0 && alone.stats.walks === 0,
      JSON.stringify(alone.stats),
    );
  });
});
