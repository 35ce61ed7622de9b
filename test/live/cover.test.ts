/**
 * Covered runs of a view (`src/live/cover.ts`): the longest run of elements each of whose bytes was read or written
 * in the filter's epoch (for reads), or written (for writes); bytes of its first and last words outside the view do
 * not count. (When a view is scanned is the element slow path's, `src/live/views.ts`.) Strided sets: every element
 * `first + stride·t` covered for its kind, kept for the epoch generation it was found in, and a failed walk skipping
 * the view's next checks (doubling).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Coverage, scan, stridedCover, uncovered } from '../../src/live/cover.js';
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

/**
 * Sets the filter bits of bytes [from, to) in `epoch` by accesses of `size` bytes: read bits, or write bits when
 * `write` (the filter keeps writes of 4 or 8 bytes: `src/live/filter.ts`).
 */
function filterBytes(v: SpanView, from: number, to: number, epoch: number, write: boolean, size = 1): void {
  for (let b = from; b < to; b += size)
    filterAdd(v, b >>> 3, epoch, ((1 << size) - 1) << ((b & 7) + (write ? 8 : 0)));
}

/** The covered runs `scan` finds, as [rlo, rhi, wlo, whi]. */
function runs(v: SpanView & Coverage, epoch: number): number[] {
  scan(v, v, epoch);
  return [v.rlo, v.rlo + v.rn, v.wlo, v.wlo + v.wn];
}

describe('scan', () => {
  test('a view starting and ending inside words: its own bytes only', () => {
    const v = view(3, 13, 1); // bytes [3, 16)
    filterBytes(v, 3, 15, 2, false);
    assert.deepEqual(runs(v, 2), [0, 12, 0, 0], 'byte 15 not read yet');
    filterBytes(v, 15, 16, 2, false);
    filterBytes(v, 0, 3, 2, true); // bytes before the view change nothing
    assert.deepEqual(runs(v, 2), [0, 13, 0, 0]);
    assert.deepEqual(runs(v, 3), [0, 0, 0, 0], 'another epoch covers nothing');
  });

  test('writes cover reads and writes; reads cover reads only', () => {
    const v = view(8, 4, 4); // bytes [8, 24)
    filterBytes(v, 8, 24, 5, true, 4);
    assert.deepEqual(runs(v, 5), [0, 4, 0, 4]);
    const u = view(8, 4, 4);
    filterBytes(u, 8, 16, 5, true, 4);
    filterBytes(u, 16, 24, 5, false, 4);
    assert.deepEqual(runs(u, 5), [0, 4, 0, 2]);
  });

  test('writes of 1 or 2 bytes cover reads only', () => {
    const v = view(0, 8, 1);
    filterBytes(v, 0, 8, 5, true);
    assert.deepEqual(runs(v, 5), [0, 8, 0, 0]);
  });

  test('the longest run of each kind, a byte missing anywhere cutting it', () => {
    const v = view(0, 8, 8); // the whole buffer
    filterBytes(v, 0, 64, 1, true, 8);
    filterBytes(v, 0, 64, 1, false);
    assert.deepEqual(runs(v, 1), [0, 8, 0, 8]);
    v.writes[0] &= ~(2 << 8); // word 4's high half (bytes 36–39) not written: element 4
    assert.deepEqual(runs(v, 1), [0, 8, 0, 4]);
    v.filter[1] &= ~(1 << 2); // byte 10's read bit (its half's write bit stays): element 1 still covered for reads
    assert.deepEqual(runs(v, 1), [0, 8, 0, 4]);
    v.writes[0] &= ~(1 << 2); // and word 1's low half's write bit
    assert.deepEqual(runs(v, 1), [2, 8, 5, 8]);
    assert.deepEqual(runs(view(0, 0, 8), 1), [0, 0, 0, 0]);
  });
});

describe('stridedCover', () => {
  /** A view of 12 Float64 elements, elements 0, 3, 6, 9 read in filter epoch 2 (generation 7), 1 and 4 written. */
  function strided(): SpanView & Coverage {
    const v = view(0, 12, 8, 12);
    for (const k of [0, 3, 6, 9]) filterBytes(v, 8 * k, 8 * k + 8, 2, false, 8);
    for (const k of [1, 4]) filterBytes(v, 8 * k, 8 * k + 8, 2, true, 8);
    return v;
  }

  test('every element of the strided set covered for its kind, with other elements between them', () => {
    assert.ok(stridedCover(strided(), 0, 3, 4, 0, 2, 7), 'reads of 0, 3, 6, 9');
    assert.ok(stridedCover(strided(), 9, -3, 4, 0, 2, 7), 'downwards');
    assert.ok(stridedCover(strided(), 1, 3, 2, 1, 2, 7), 'writes of 1, 4');
    assert.ok(stridedCover(strided(), 1, 3, 2, 0, 2, 7), 'reads of written elements');
    assert.ok(!stridedCover(strided(), 0, 3, 4, 1, 2, 7), 'read elements do not cover writes');
    assert.ok(!stridedCover(strided(), 1, 3, 3, 0, 2, 7), 'element 7 not accessed');
    assert.ok(!stridedCover(strided(), 0, 3, 5, 0, 2, 7), 'element 12 out of bounds');
    assert.ok(!stridedCover(strided(), 0, 3, 4, 0, 3, 7), 'another filter epoch');
  });

  test('a set found covered is answered without a walk until the generation changes', () => {
    const v = strided();
    assert.ok(stridedCover(v, 0, 3, 4, 0, 2, 7));
    v.filter.fill(0); // the filter can only grow within an epoch: the kept set is not walked again
    assert.ok(stridedCover(v, 0, 3, 4, 0, 2, 7));
    assert.ok(stridedCover(v, 0, 3, 2, 0, 2, 7), 'a shorter set of the same start and stride');
    assert.ok(stridedCover(v, 3, 3, 3, 0, 2, 7), 'a subset starting later: 3, 6, 9');
    assert.ok(
      !stridedCover(v, 9, -3, 4, 0, 2, 7),
      'the same set downwards is walked (another stride): filter gone',
    );
    assert.ok(!stridedCover(v, 6, 3, 3, 0, 2, 7), 'past the kept set (6, 9, 12): walked');
    assert.ok(!stridedCover(v, 1, 3, 3, 0, 2, 7), 'between its elements (1, 4, 7): walked');
    assert.ok(!stridedCover(v, 0, 3, 4, 1, 2, 7), 'not for writes');
    assert.ok(!stridedCover(v, 0, 3, 4, 0, 2, 8), 'a new generation walks again');
  });

  test('a failed walk skips the next checks of the view, twice as many after each failure', () => {
    const v = strided();
    assert.ok(!stridedCover(v, 2, 3, 4, 0, 2, 7)); // element 2 not read: skip 1
    filterBytes(v, 0, 96, 2, false); // now every element is read
    assert.ok(!stridedCover(v, 2, 3, 4, 0, 2, 7), 'skipped');
    assert.ok(stridedCover(v, 2, 3, 4, 0, 2, 7), 'walked again');
    const u = strided();
    assert.ok(!stridedCover(u, 2, 3, 4, 0, 2, 7)); // skip 1
    assert.ok(!stridedCover(u, 2, 3, 4, 0, 2, 7)); // skipped
    assert.ok(!stridedCover(u, 2, 3, 4, 0, 2, 7)); // walked, failed: skip 2
    filterBytes(u, 0, 96, 2, false);
    assert.ok(!stridedCover(u, 2, 3, 4, 0, 2, 7));
    assert.ok(!stridedCover(u, 2, 3, 4, 0, 2, 7));
    assert.ok(stridedCover(u, 2, 3, 4, 0, 2, 7));
  });
});
