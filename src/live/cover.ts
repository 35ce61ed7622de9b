/**
 * Whole-view coverage by the same-epoch filter (`./views.ts`; FastTrack's same-epoch case, PLDI'09 §3, taken for a
 * whole view at once): once every byte of a view was checked in the thread's current epoch — read or written for
 * reads, written for writes — no access through that view needs a check until the epoch ends, whatever its key
 * (an index out of bounds, or a key that is not an index, touches no shared memory: ECMA-262 §10.4.5.15–16). The
 * element fast path then decides such an access with one comparison instead of the word's filter test (raytracer's
 * scene, read by every ray: 99.9% of its accesses are filtered).
 *
 * A view's coverage is found by scanning its filter words ({@link covers}), after as many misses through the view
 * in the epoch as it has elements, and again after twice as many as at the last scan ({@link Coverage}): amortized
 * O(1) per miss, and nothing on the filtered path. Views tracking a growable buffer's length are never covered.
 */
import { filterBits } from './filter.js';
import type { SpanView } from './spans.js';

/** Bit of {@link covers}'s answer: every byte of the view read or written in the epoch. */
export const READS = 1;
/** Bit of {@link covers}'s answer: every byte of the view written in the epoch. */
export const WRITES = 2;

/**
 * What a view keeps of its coverage, by epoch generation (the thread's count of epochs, which never wraps, unlike
 * the filter's 16-bit epoch): `rc`/`wc`, the generation in which reads/writes are all covered (-1: none);
 * `mg`, the generation of the miss count `mn`; `mt`, the count at which the view is scanned next.
 */
export interface Coverage {
  rc: number;
  wc: number;
  mg: number;
  mn: number;
  mt: number;
}

/** `v` with no coverage yet (its fields added in one order: one hidden class for every view). */
export const uncovered = <T extends object>(v: T): T & Coverage =>
  Object.assign(v, { rc: -1, wc: -1, mg: -1, mn: 0, mt: 0 });

/**
 * Which accesses through view `v` (of a fixed length) the same-epoch filter covers in filter epoch `epoch`: a bit
 * set of {@link READS} and {@link WRITES}, each set when every byte of the view has the filter's read-or-write
 * (resp. write) bit in that epoch; 0 for a view of no element.
 */
export function covers(v: SpanView, epoch: number): number {
  if (v.len <= 0) return 0;
  const end = v.off + v.len * v.bpe; // first byte after the view
  const first = v.off >>> 3;
  const last = (end - 1) >>> 3;
  let answer = READS | WRITES;
  for (let w = first; w <= last; w++) {
    const e = filterBits(v, w, epoch);
    const lo = w === first ? v.off & 7 : 0;
    const hi = w === last ? ((end - 1) & 7) + 1 : 8;
    const mask = ((1 << hi) - 1) & ~((1 << lo) - 1);
    if (((e | (e >>> 8)) & mask) !== mask) return 0;
    if (((e >>> 8) & mask) !== mask) answer = READS;
  }
  return answer;
}

/**
 * Counts a miss through view `v` (`c` its coverage) in generation `gen` (filter epoch `epoch`), after the filter
 * recorded it, and scans the view when the count reaches its threshold; sets `rc`/`wc` to `gen` when covered.
 */
export function countMiss(v: SpanView, c: Coverage, gen: number, epoch: number): void {
  if (c.mg !== gen) {
    c.mg = gen;
    c.mn = 0;
    c.mt = v.len; // a miss per element at least, before the view can be covered
  }
  if (++c.mn < c.mt) return;
  const bits = covers(v, epoch);
  if (bits & READS) c.rc = gen;
  if (bits & WRITES) c.wc = gen;
  c.mt = 2 * c.mn;
}
