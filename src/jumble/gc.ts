/**
 * Garbage collection of write buffers (Flanagan & Freund, PLDI'10, §4.1 Figure 6 and §5.2; ../shared/JUMBLE.md
 * §4.6.4-5, §11.5), applied after each [WRITE] by {@link collect}:
 * - [GC2], generalized: the earlier of two entries with equal value written by the same thread in the same epoch
 *   (t_i = t_m, K_i(t_i) = K_m(t_m)) is removed — every thread that could read it can read the later one, and the
 *   later one hides whatever it hid (JUMBLE.md §4.6.4; the paper's K_i = K_m is the case without an acquire
 *   between). Unknown values (NaN) never match.
 * - [GC1]: an entry hidden from every thread that may still act (`∀t. ∃j > i. K_i ⊑ K_j ⊑ C_t`) is removed. The
 *   paper quantifies over all threads; quantifying over the threads that may still read is sound (a thread forked
 *   later inherits its live forker's clock), provided a thread that will start *without* a fork counts with clock
 *   ⊥ — which blocks [GC1]; the caller then passes no {@link LiveThreads} (JUMBLE.md §4.6.5, §11.5).
 * - [REMOVE OLDEST]: while the buffer is longer than the bound (default 32, §5.2), its oldest entry goes; sound
 *   (fewer legal values) but it shrinks the adversary's freedom, so a removed entry still visible to some thread that
 *   may act is counted in {@link WriteBuffer.droppedVisible}.
 * [GC1] runs only once the buffer is longer than {@link GC1_FROM} entries or the bound (its cost is
 * O(n · threads · width), O(n · threads) when the entries form a chain: `WriteBuffer.chain`).
 */
import type { WriteBuffer } from './buffer.js';
import { visible } from './visible.js';

/** The clocks of the threads that may still act: `count` rows of `width` Int32 at `data[offsets[k] …]`. */
export interface LiveThreads {
  data: Int32Array;
  width: number;
  offsets: Int32Array;
  count: number;
}

/** [GC1] is tried when a buffer holds more than this many entries. */
export const GC1_FROM = 4;

let vis = new Int32Array(64);
let mark = new Uint8Array(64);

function scratch(n: number): void {
  if (vis.length < n) {
    vis = new Int32Array(n * 2);
    mark = new Uint8Array(n * 2);
  }
}

/**
 * Garbage collection after an append (see the file header).
 * @param live the threads that may still act, or undefined when one that will start unforked may still come
 *   ([GC1] off, and every [REMOVE OLDEST] removal counts as visible).
 * @param bound [REMOVE OLDEST]'s bound (≥ 1).
 */
export function collect(b: WriteBuffer, live: LiveThreads | undefined, bound: number): void {
  const n = b.length;
  gc2(b);
  if (live !== undefined && b.length > Math.min(GC1_FROM, bound)) gc1(b, live);
  while (b.length > bound) {
    if (live === undefined || visibleToAny(b, 0, live)) b.droppedVisible++;
    b.removeAt(0);
    b.oldestRemoved++;
  }
  // the entries left may form a chain again (a racing write removed)
  if (!b.chain && b.length < n) b.rechain();
}

/** [GC2] generalized for the newest entry: removes older entries of the same value, writer and epoch. */
export function gc2(b: WriteBuffer): void {
  const m = b.length - 1;
  const v = b.value[m];
  const t = b.tid[m];
  const e = b.epoch[m];
  for (let i = m - 1; i >= 0; i--) {
    if (b.tid[i] === t && b.epoch[i] === e && b.value[i] === v) {
      b.removeAt(i);
      b.gc2Removed++;
    }
  }
}

/** [GC1] over the threads `live`: removes every entry none of them can read. @returns the entries removed. */
export function gc1(b: WriteBuffer, live: LiveThreads): number {
  const n = b.length;
  scratch(n);
  mark.fill(0, 0, n);
  mark[n - 1] = 1;
  for (let k = 0; k < live.count; k++) {
    const c = visible(b, live.data, live.offsets[k], live.width, vis);
    for (let a = 0; a < c; a++) mark[vis[a]] = 1;
  }
  let removed = 0;
  for (let i = n - 2; i >= 0; i--) {
    if (mark[i] === 0) {
      b.removeAt(i);
      removed++;
    }
  }
  b.gc1Removed += removed;
  return removed;
}

/** Whether entry i of `b` is visible to some thread of `live`. */
export function visibleToAny(b: WriteBuffer, i: number, live: LiveThreads): boolean {
  scratch(b.length);
  for (let k = 0; k < live.count; k++) {
    const c = visible(b, live.data, live.offsets[k], live.width, vis);
    for (let a = 0; a < c && vis[a] <= i; a++) if (vis[a] === i) return true;
  }
  return false;
}
