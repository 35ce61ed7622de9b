/**
 * Covered runs of a view (`src/live/cover.ts`): the longest run of elements each of whose bytes was read or written
 * in the filter's epoch (for reads), or written (for writes); bytes of its first and last words outside the view do
 * not count. (When a view is scanned is the element slow path's, `src/live/views.ts`.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Coverage, scan, uncovered } from '../../src/live/cover.js';
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
