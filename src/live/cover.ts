/**
 * Runs of a view covered by the same-epoch filter (`./views.ts`; FastTrack's same-epoch case, PLDI'09 §3, taken for
 * many elements at once): once every byte of the elements [lo, hi) of a view was checked in the thread's current
 * epoch — read or written, for reads; written, for writes — no access of that kind to one of them needs a check
 * until the epoch ends. The element fast path then decides it with two comparisons instead of the word's filter
 * test (raytracer's scene and moldyn's positions, read by every ray or pair: 99.9% of raytracer's accesses are
 * filtered).
 *
 * The covered runs are found by scanning the view's filter words ({@link scan}: the longest run of each kind), after
 * as many element accesses through the view in the epoch as it has elements, and again after twice as many as at
 * the last scan ({@link countAccess}): amortized O(1) per access, counted on the filter's slow path only. Views
 * tracking a growable buffer's length are never covered.
 */
import type { SpanView } from './spans.js';

/**
 * What a view keeps of its covered runs, by epoch generation (the thread's count of epochs, which never wraps,
 * unlike the filter's 16-bit epoch): in generation `rg` the elements [`rlo`, `rhi`) are covered for reads, in `wg`
 * the elements [`wlo`, `whi`) for writes (-1: none); `mg`, the generation of the access count `mn`; `mt`, the count
 * at which the view is scanned next.
 */
export interface Coverage {
  rg: number;
  rlo: number;
  rhi: number;
  wg: number;
  wlo: number;
  whi: number;
  mg: number;
  mn: number;
  mt: number;
}

/**
 * Sets `c`'s covered runs to the longest runs of elements of view `v` (of a fixed length) that the filter covers in
 * filter epoch `epoch`, for reads (every byte read or written) and for writes (every byte written), in generation
 * `gen`. An element lies within one filter word (a view's byteOffset is a multiple of its element size).
 */
export function scan(v: SpanView, c: Coverage, gen: number, epoch: number): void {
  const filter = v.filter;
  const ones = (1 << v.bpe) - 1;
  let r0 = 0; // the current runs start here
  let w0 = 0;
  let rlo = 0; // the longest runs so far
  let rhi = 0;
  let wlo = 0;
  let whi = 0;
  for (let k = 0; k < v.len; k++) {
    const byte = v.off + k * v.bpe;
    const e = filter[byte >>> 3];
    const mask = ones << (byte & 7);
    const now = e >>> 16 === epoch;
    if (!(now && ((e | (e >>> 8)) & mask) === mask)) r0 = k + 1;
    else if (k + 1 - r0 > rhi - rlo) {
      rlo = r0;
      rhi = k + 1;
    }
    if (!(now && ((e >>> 8) & mask) === mask)) w0 = k + 1;
    else if (k + 1 - w0 > whi - wlo) {
      wlo = w0;
      whi = k + 1;
    }
  }
  c.rg = gen;
  c.rlo = rlo;
  c.rhi = rhi;
  c.wg = gen;
  c.wlo = wlo;
  c.whi = whi;
}

/**
 * Counts an element access through view `v` (`c` its coverage; `v.len` > 0) that the covered runs did not decide, in
 * generation `gen` (filter epoch `epoch`), after the filter took it; scans the view when the count reaches its
 * threshold.
 */
export function countAccess(v: SpanView, c: Coverage, gen: number, epoch: number): void {
  if (c.mg !== gen) {
    c.mg = gen;
    c.mn = 0;
    c.mt = v.len; // an access per element at least, before the whole view can be covered
  }
  if (++c.mn < c.mt) return;
  scan(v, c, gen, epoch);
  c.mt = 2 * c.mn;
}
