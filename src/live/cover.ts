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
 * UNARMED} after a scan until a miss. The strided sets found covered ({@link stridedCover}) in generation `sg`: `ss`,
 * four numbers each (first index, stride, count, kind); `sk`, the cover checks of the view left to skip before the
 * next walk after one that failed, `sb` the skip after the next failure (doubling).
 */
export interface Coverage {
  rlo: number;
  rn: number;
  wlo: number;
  wn: number;
  mg: number;
  mn: number;
  mt: number;
  sg: number;
  ss: number[];
  sk: number;
  sb: number;
}

/** `v` with no covered run yet (its fields added in one order: one hidden class for every view). */
export const uncovered = <T extends object>(v: T): T & Coverage =>
  Object.assign(v, { rlo: 0, rn: 0, wlo: 0, wn: 0, mg: -1, mn: 0, mt: 0, sg: -1, ss: [], sk: 0, sb: 1 });

/** Strided sets a view keeps per generation ({@link Coverage} `ss`); past it, they are forgotten. */
const MAX_STRIDED = 16;
/** The longest skip after failed walks ({@link Coverage} `sb`). */
const MAX_SKIP = 1024;

/**
 * Whether every element `first + stride·t` (t < `count`) of view `v` is covered for `kind` (0 read: read or written;
 * 1 write or 2 read then write: written) by the same-epoch filter in filter epoch `epoch`, generation `gen` (the
 * thread's count of epochs): the elements a covered loop's access of stride other than ±1 may touch (raytracer's
 * `spheres[s * 11 + c]`, whose view has other fields between them that only some rays read, so that no covered run
 * holds them). The filter only grows within an epoch, so a set found covered stays covered until it ends: kept in
 * `ss`, and it and every subset of it of the same stride (moldyn's inner loop over `pos[3 * j]` for j from i + 1,
 * whose start moves up with i) answered without a walk while `gen` lasts. A walk that fails (an element not yet checked in the epoch, or
 * out of bounds: an access that touches no memory is left to its per-access path) skips the next `sb` checks of the
 * view, `sb` doubling up to {@link MAX_SKIP}, so that a loop that never covers its set costs at most about one walk
 * per `sb` entries.
 */
export function stridedCover(
  v: SpanView & Coverage,
  first: number,
  stride: number,
  count: number,
  kind: number,
  epoch: number,
  gen: number,
): boolean {
  if (v.sg !== gen) {
    v.sg = gen;
    v.ss.length = 0;
    v.sk = 0;
    v.sb = 1;
  }
  const ss = v.ss;
  for (let e = 0; e < ss.length; e += 4) {
    if (ss[e + 1] !== stride || (kind !== 0 && ss[e + 3] === 0)) continue;
    // a subset of a kept set: its first element is the kept set's t-th, and it ends within it
    const d = first - ss[e];
    if (d % stride !== 0) continue;
    const t = d / stride;
    if (t >= 0 && t + count <= ss[e + 2]) return true;
  }
  if (v.sk > 0) {
    v.sk--;
    return false;
  }
  const ones = (1 << v.bpe) - 1;
  for (let t = 0, k = first; t < count; t++, k += stride) {
    if (!(k >= 0 && k < v.len)) return failed(v);
    const byte = v.off + k * v.bpe;
    const e = filterBits(v, byte >>> 3, epoch);
    const mask = ones << (byte & 7);
    if ((((kind === 0 ? e : 0) | (e >>> 8)) & mask) !== mask) return failed(v);
  }
  if (ss.length >= 4 * MAX_STRIDED) ss.length = 0;
  ss.push(first, stride, count, kind);
  v.sb = 1;
  return true;
}

/** A failed walk of {@link stridedCover}: the next `sb` checks of `v` skip theirs. */
function failed(v: Coverage): false {
  v.sk = v.sb;
  v.sb = Math.min(2 * v.sb, MAX_SKIP);
  return false;
}

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
