/**
 * Runs of a view covered by the same-epoch filter (`./views.ts`; FastTrack's same-epoch case, PLDI'09 §3, taken for
 * many elements at once): once every byte of the elements [lo, hi) of a view was checked in the thread's current
 * epoch — read or written, for reads; written, for writes — no access of that kind to one of them needs a check
 * until the epoch ends. The element fast path then decides it with one comparison (the index less the run's start,
 * as an unsigned 32-bit integer, below the run's length) instead of the word's filter test (raytracer's scene and
 * moldyn's positions, read by every ray or pair: 99.9% of raytracer's accesses are filtered).
 *
 * The covered runs are found by scanning the view's filter words ({@link scan}: the longest run of each kind). The
 * element slow path (`./views.ts`) counts the accesses through the view outside its runs in the epoch ({@link
 * Coverage}); the first scan comes after as many of them as the view has elements, and each later one as many
 * accesses after a miss that followed the previous scan ({@link UNARMED}): no scan while every access is a filter
 * hit (the runs cannot grow), at most one element scanned per access counted (amortized O(1)), and a view whose
 * misses have stopped is scanned at most once more. Views tracking a growable buffer's length are never covered.
 */
import { filterBits } from './filter.js';
import type { SpanView } from './spans.js';

/**
 * What a view keeps of its covered runs in the thread's current epoch: the elements [`rlo`, `rlo + rn`) are covered
 * for reads, [`wlo`, `wlo + wn`) for writes (`rn`, `wn` 0: none; the element hooks set both to 0 when the epoch ends,
 * for the views covered in it); `mg`, the epoch generation (the thread's count of epochs, which never wraps, unlike
 * the filter's 16-bit epoch) of the access count `mn`; `mt`, the count at which the view is scanned next, {@link
 * UNARMED} after a scan until a miss.
 */
export interface Coverage {
  rlo: number;
  rn: number;
  wlo: number;
  wn: number;
  mg: number;
  mn: number;
  mt: number;
}

/** `v` with no covered run yet (its fields added in one order: one hidden class for every view). */
export const uncovered = <T extends object>(v: T): T & Coverage =>
  Object.assign(v, { rlo: 0, rn: 0, wlo: 0, wn: 0, mg: -1, mn: 0, mt: 0 });

/**
 * Sets `c`'s covered runs to the longest runs of elements of view `v` (of a fixed length) that the filter covers in
 * filter epoch `epoch`, for reads (every byte read or written) and for writes (every byte written). An element lies
 * within one filter word (a view's byteOffset is a multiple of its element size).
 */
export function scan(v: SpanView, c: Coverage, epoch: number): void {
  const ones = (1 << v.bpe) - 1;
  let r0 = 0; // the current runs start here
  let w0 = 0;
  let rlo = 0; // the longest runs so far
  let rhi = 0;
  let wlo = 0;
  let whi = 0;
  for (let k = 0; k < v.len; k++) {
    const byte = v.off + k * v.bpe;
    const e = filterBits(v, byte >>> 3, epoch);
    const mask = ones << (byte & 7);
    if (((e | (e >>> 8)) & mask) !== mask) r0 = k + 1;
    else if (k + 1 - r0 > rhi - rlo) {
      rlo = r0;
      rhi = k + 1;
    }
    if (((e >>> 8) & mask) !== mask) w0 = k + 1;
    else if (k + 1 - w0 > whi - wlo) {
      wlo = w0;
      whi = k + 1;
    }
  }
  c.rlo = rlo;
  c.rn = rhi - rlo;
  c.wlo = wlo;
  c.wn = whi - wlo;
}

/** {@link Coverage.mt} after a scan, until a miss sets the next one: a count no epoch reaches (the largest small integer). */
export const UNARMED = 0x3fffffff;
