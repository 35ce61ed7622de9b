/**
 * The check locks of a range check's pages (`Shadow.accessRuns`, issue 24 §1), taken and released a run of
 * consecutive pages at a time: one call of {@link HeapAtomics.lockRange} / {@link HeapAtomics.unlockRange} (a loop in
 * WebAssembly) for the pages whose locks are free or have no waiters, the page that stops it the way of
 * {@link lockPage} / {@link unlockPage}. Same locks, same order (ascending), same atomic operations per page as
 * {@link lockPage} and {@link unlockPage} one page at a time; fewer JS-to-Wasm calls.
 */
import { PAGE_LOCK_STRIDE } from '../memory/heap-atomics.js';
import { lockPage, rawAtomics, type StateViews } from '../memory/state.js';

/**
 * How many of `pages[k..n)` (ascending heap indices of page locks, each once) follow `pages[k]` without a gap, itself
 * included. Ascending and distinct, page `k + i` follows without a gap exactly when all before it do, so the answer is
 * found by bisection: O(log n) reads, one when all do (a range check's single run of pages, lufact's column).
 */
export function consecutive(pages: Int32Array, k: number, n: number): number {
  const first = pages[k];
  let lo = 1; // pages[k .. k + lo) follow without a gap
  let hi = n - k; // pages[k + hi ..) do not (n - k: none left)
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1; // lo < mid <= hi
    if (pages[k + mid - 1] === first + (mid - 1) * PAGE_LOCK_STRIDE) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Takes the locks of `pages[k..n)`'s first run of consecutive pages, or of its first pages: at least one.
 * @returns how many it took, from `pages[k]` on (the caller counts them as held).
 */
export function lockSome(s: StateViews, pages: Int32Array, k: number, n: number): number {
  const m = consecutive(pages, k, n);
  const taken = s.pages.lockRange(pages[k], m, s.self);
  if (taken === m) return m;
  lockPage(s, pages[k + taken]); // not free: spins, then waits (`../memory/state.ts` lock)
  return taken + 1;
}

/**
 * Releases the locks of `pages[k..n)`'s first run of consecutive pages, or of its first pages (at least one), waking
 * a waiter of the one that had waiters. @returns how many it released, from `pages[k]` on.
 */
export function unlockSome(s: StateViews, pages: Int32Array, k: number, n: number): number {
  const m = consecutive(pages, k, n);
  const clean = s.pages.unlockRange(pages[k], m);
  if (clean === m) return m;
  rawAtomics.notify(s.heap, pages[k + clean], 1);
  return clean + 1;
}
