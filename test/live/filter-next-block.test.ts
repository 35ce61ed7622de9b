/**
 * The range check's scan of the same-epoch filter (`filterNextBlock`, `src/live/filter.ts`; `src/live/spans.ts`
 * addRuns): the words it skips are exactly those whose entries are void in the epoch, compared with `filterBits` word
 * by word over random filters.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FILTER_BLOCK, filterAdd, filterBits, filterNextBlock, newFilter } from '../../src/live/filter.js';
import { seeded as random } from '../helpers/seeded.js';

describe('filter: the next block of an epoch', () => {
  test('the words before it have no entry in the epoch; it is in a block of the epoch, or the end', () => {
    const words = 20 * FILTER_BLOCK;
    const next = random(7);
    for (let round = 0; round < 200; round++) {
      const f = newFilter(words);
      for (let k = next(6); k > 0; k--) filterAdd(f, next(words), 1 + next(3), 1 << next(16));
      const epoch = 1 + next(3);
      const w = next(words);
      const to = w + 1 + next(words - w);
      const y = filterNextBlock(f, w, to, epoch);
      assert.ok(y >= w && y <= to, `${y} in [${w}, ${to}]`);
      for (let x = w; x < y; x++) assert.equal(filterBits(f, x, epoch), 0, `word ${x} before ${y}`);
      if (y < to) assert.equal(f.epochs[Math.floor(y / FILTER_BLOCK)], epoch, `word ${y}'s block`);
      if (y > w && y < to) assert.equal(y % FILTER_BLOCK, 0, 'a block start');
    }
  });

  test('a word in a block of the epoch is its own answer, even without an entry', () => {
    const f = newFilter(4 * FILTER_BLOCK);
    filterAdd(f, FILTER_BLOCK + 3, 2, 0xff);
    assert.equal(filterNextBlock(f, FILTER_BLOCK + 5, 4 * FILTER_BLOCK, 2), FILTER_BLOCK + 5);
    assert.equal(filterNextBlock(f, 1, 4 * FILTER_BLOCK, 2), FILTER_BLOCK);
    assert.equal(filterNextBlock(f, 2 * FILTER_BLOCK, 4 * FILTER_BLOCK, 2), 4 * FILTER_BLOCK);
    assert.equal(filterNextBlock(f, 1, 5, 2), 5, 'not past the end');
  });
});
