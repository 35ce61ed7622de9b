/**
 * Whole-view coverage by the same-epoch filter (`src/live/cover.ts`): a view is covered for reads when every one of
 * its bytes was read or written in the filter's epoch, for writes when every byte was written; bytes of its first
 * and last words outside the view do not count; a view is scanned only after as many misses as it has elements in
 * a generation, then after twice as many.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Coverage, countMiss, covers, READS, uncovered, WRITES } from '../../src/live/cover.js';
import { filterAdd, newFilter } from '../../src/live/filter.js';
import { type SpanView, TOUCHED } from '../../src/live/spans.js';

/** A view of `len` elements of `bpe` bytes at byte `off` of a buffer of `words` 8-byte words, nothing filtered. */
function view(off: number, len: number, bpe: number, words = 8): SpanView & Coverage {
  return uncovered({
    id: 1,
    base: 0,
    off,
    bpe,
    len,
    ...newFilter(words),
    touched: new Int32Array(TOUCHED),
  });
}

/** Sets the filter bits of bytes [from, to) in `epoch`: read bits, or write bits when `write`. */
function filterBytes(v: SpanView, from: number, to: number, epoch: number, write: boolean): void {
  for (let b = from; b < to; b++) filterAdd(v, b >>> 3, epoch, 1 << ((b & 7) + (write ? 8 : 0)));
}

describe('covers', () => {
  test('a view starting and ending inside words is covered by its own bytes only', () => {
    const v = view(3, 13, 1); // bytes [3, 16)
    filterBytes(v, 3, 15, 2, false);
    assert.equal(covers(v, 2), 0, 'byte 15 not read yet');
    filterBytes(v, 15, 16, 2, false);
    assert.equal(covers(v, 2), READS);
    assert.equal(covers(v, 3), 0, 'another epoch covers nothing');
  });

  test('writes cover reads and writes; reads cover reads only; a mix covers reads', () => {
    const v = view(8, 4, 4); // bytes [8, 24)
    filterBytes(v, 8, 24, 5, true);
    assert.equal(covers(v, 5), READS | WRITES);
    const u = view(8, 4, 4);
    filterBytes(u, 8, 16, 5, true);
    filterBytes(u, 16, 24, 5, false);
    assert.equal(covers(u, 5), READS);
  });

  test('a byte of the view missing anywhere, or an empty or growable view, is not covered', () => {
    const v = view(0, 8, 8); // the whole buffer
    filterBytes(v, 0, 64, 1, true);
    filterBytes(v, 0, 64, 1, false);
    assert.equal(covers(v, 1), READS | WRITES);
    v.filter[4] &= ~(1 << 13); // byte 37's write bit
    assert.equal(covers(v, 1), READS);
    v.filter[4] &= ~(1 << 5); // and its read bit
    assert.equal(covers(v, 1), 0);
    assert.equal(covers(view(0, 0, 8), 1), 0);
    assert.equal(covers(view(0, -1, 8), 1), 0);
  });
});

describe('countMiss', () => {
  test('scans after as many misses as elements, then after twice as many; a new generation starts over', () => {
    const v = view(0, 4, 8); // 4 words
    filterBytes(v, 0, 24, 1, false);
    for (let n = 1; n <= 3; n++) countMiss(v, v, 7, 1);
    assert.equal(v.rc, -1, 'not scanned before 4 misses');
    countMiss(v, v, 7, 1);
    assert.equal(v.rc, -1, 'scanned at 4, word 3 not covered');
    assert.equal(v.mt, 8);
    filterBytes(v, 24, 32, 1, false);
    for (let n = 5; n <= 7; n++) countMiss(v, v, 7, 1);
    assert.equal(v.rc, -1, 'not scanned again before 8 misses');
    countMiss(v, v, 7, 1);
    assert.equal(v.rc, 7, 'covered for reads in generation 7');
    assert.equal(v.wc, -1, 'not for writes');
    countMiss(v, v, 8, 2);
    assert.equal(v.mg, 8);
    assert.equal(v.mn, 1);
    assert.equal(v.mt, 4);
  });
});
