/**
 * The shared counters of the report's `stats` (`src/live/memory/state.ts` addStat/readStat) count past 2^32: crypt
 * at size large accesses more than 2^32 words, and a 32-bit counter printed a negative count of accesses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addStat, CTL, readStat, STAT, STATS } from '../../src/live/memory/state.js';

const control = (): Int32Array => new Int32Array(new SharedArrayBuffer(CTL.size * 4));

describe('shared counters', () => {
  test('sums past 2^31 and 2^32, in adds of any size', () => {
    const ctl = control();
    let sum = 0;
    for (const n of [0x7fffffff, 1, 0x7fffffff, 2, 5_000_000_000, 3, 2 ** 40]) {
      addStat(ctl, STAT.accesses, n);
      sum += n;
      assert.equal(readStat(ctl, STAT.accesses), sum);
    }
  });

  test('every counter has its own words', () => {
    const ctl = control();
    STATS.forEach((_, i) => {
      addStat(ctl, i, 2 ** 33 + i);
    });
    STATS.forEach((_, i) => {
      assert.equal(readStat(ctl, i), 2 ** 33 + i);
    });
    assert.equal(ctl[CTL.dedup], 0, 'the counters end before the report table');
  });
});
