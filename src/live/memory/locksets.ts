/**
 * The explicit lockset store of the live detector (PLDI'07 §5.4, partially-eager evaluation): locksets evaluated up
 * to a list position, kept in the shadow heap for the Infos that start from them (`../shadow/goldilocks.ts`: an
 * Info's lockset word, 0 = the implicit {owner} at the Info's `pos`).
 *
 * A record: [`refs`, `start` (the list position it is evaluated up to), `n`, `next` (free-list link), `base`, `owner`,
 * `reach` ({@link locksetReach}), then the n keys as (high, low) Int32 pairs] — a key is a thread id or an object key `a * 2^32 + (b >>> 0)`, exact
 * in a double. A *view* (`base` ≠ 0) holds no keys: its lockset is the first n keys of record `base`, which it
 * retains, and its start is the base's; the locksets a collection evaluates for the starts of one owner are nested,
 * so it stores them as views of one record (`../shadow/chains.ts`), whose `owner` says whose (-1: no chain's).
 * Records are immutable once made; `refs` counts the Infos that point to it (atomically: an Info is
 * retained and released under its word's check lock, and two Infos of one record may be on different pages).
 * The last release frees the record to the free list of its size class (8 << k words), under `CTL.lsLock`; a
 * record is allocated from there or from the heap. Not hash-consed: one evaluation shares its record among the
 * Infos it serves (`../shadow/evaluate.ts`), and a record lives only while an Info starts from it.
 */
import { allocHeap, CTL, LS_CLASSES, lock, rawAtomics, type StateViews, unlock } from './state.js';

const REFS = 0;
const START = 1;
const N = 2;
const NEXT = 3;
const BASE = 4;
const OWNER = 5;
const REACH = 6;
const KEYS = 7;
const TWO32 = 2 ** 32;

/** The size class of a record of `n` keys (a record past the largest class is never freed). */
const classOf = (n: number): number => {
  let k = 0;
  while (8 << k < KEYS + 2 * n) k++;
  return k;
};

/** A free record of size class `k` (8 << k words), or a new one from the heap; its fields are the caller's to set. */
function allocRecord(s: StateViews, k: number): number {
  let id = 0;
  if (k < LS_CLASSES) {
    lock(s, s.ctl, CTL.lsLock);
    try {
      id = s.ctl[CTL.lsFree + k];
      if (id !== 0) {
        if (id + KEYS > s.heap.length) s.refresh();
        s.ctl[CTL.lsFree + k] = s.heap[id + NEXT];
      }
    } finally {
      unlock(s.ctl, CTL.lsLock);
    }
  }
  if (id === 0) id = allocHeap(s, 8 << k);
  else if (id + (8 << k) > s.heap.length) s.refresh();
  return id;
}

/**
 * Stores `ls` (distinct keys), evaluated up to list position `start`, with one reference; `owner` names the chain whose
 * lanes will be views of it (`../shadow/chains.ts`), -1 for none; `reach`: see {@link locksetReach}.
 * @returns the record's heap index (non-zero). @throws RangeError when the heap is exhausted.
 */
export function storeLockset(
  s: StateViews,
  ls: ReadonlySet<number> | readonly number[],
  start: number,
  owner = -1,
  reach = -1,
): number {
  const n = 'size' in ls ? ls.size : ls.length;
  const id = allocRecord(s, classOf(n));
  const heap = s.heap;
  heap[id + START] = start;
  heap[id + N] = n;
  heap[id + BASE] = 0;
  heap[id + OWNER] = owner;
  heap[id + REACH] = reach;
  let i = id + KEYS;
  for (const key of ls) {
    heap[i++] = Math.floor(key / TWO32);
    heap[i++] = (key % TWO32) | 0;
  }
  rawAtomics.store(heap, id + REFS, 1);
  return id;
}

/**
 * Stores a view of the first `n` keys of record `base` (not a view itself), with one reference; it retains `base`.
 * `reach`: see {@link locksetReach}.
 * @returns the view's heap index. @throws RangeError when the heap is exhausted.
 */
export function storeView(s: StateViews, base: number, n: number, reach: number): number {
  retainLockset(s, base);
  const id = allocRecord(s, 0);
  const heap = s.heap;
  heap[id + START] = heap[base + START];
  heap[id + N] = n;
  heap[id + BASE] = base;
  heap[id + OWNER] = heap[base + OWNER];
  heap[id + REACH] = reach;
  rawAtomics.store(heap, id + REFS, 1);
  return id;
}

/** One more Info points to record `id`. */
export function retainLockset(s: StateViews, id: number): void {
  if (id + KEYS > s.heap.length) s.refresh();
  rawAtomics.add(s.heap, id + REFS, 1);
}

/** One Info less points to record `id`; the last frees it (and releases a view's base). */
export function releaseLockset(s: StateViews, id: number): void {
  if (id + KEYS > s.heap.length) s.refresh();
  if (rawAtomics.sub(s.heap, id + REFS, 1) !== 1) return;
  const base = s.heap[id + BASE];
  const k = base !== 0 ? 0 : classOf(s.heap[id + N]);
  if (k < LS_CLASSES) {
    lock(s, s.ctl, CTL.lsLock);
    try {
      s.heap[id + NEXT] = s.ctl[CTL.lsFree + k];
      s.ctl[CTL.lsFree + k] = id;
    } finally {
      unlock(s.ctl, CTL.lsLock);
    }
  }
  if (base !== 0) releaseLockset(s, base);
}

/** Header word `at` of record `id`, the heap refreshed if the record lies beyond the thread's view of it. */
function header(s: StateViews, id: number, at: number): number {
  if (id + KEYS > s.heap.length) s.refresh();
  return s.heap[id + at];
}

/** The list position record `id` is evaluated up to (where a walk from it starts). */
export const locksetStart = (s: StateViews, id: number): number => header(s, id, START);

/** The number of keys of record `id` (of a view: its prefix's). */
export const locksetSize = (s: StateViews, id: number): number => header(s, id, N);

/**
 * The record of a chain (`../shadow/chains.ts`) whose prefix record `id` is: a view's base, a chain's record itself;
 * 0 for any other record.
 */
export function chainBase(s: StateViews, id: number): number {
  const base = header(s, id, BASE);
  return base !== 0 ? base : s.heap[id + OWNER] >= 0 ? id : 0;
}

/**
 * How far a proof from record `id` reaches, or -1: every access of its owner at a list position ≤ reach holds, at the
 * record's start, all the record holds (an access of the chain's lanes up to its own, `../shadow/evaluate.ts`; an
 * earlier access of the owner holds more: the rules are monotone). So when a walk from the record takes a thread in
 * through one of its keys, all those accesses happen before that thread's point, not only the Info's
 * (`../shadow/goldilocks.ts` `walk`, the memo's extension).
 */
export const locksetReach = (s: StateViews, id: number): number => header(s, id, REACH);

/** The owner of the chain record `id` is (or views) a result of, or -1 (`../shadow/chains.ts`). */
export const locksetOwner = (s: StateViews, id: number): number => header(s, id, OWNER);

/** Where record `id`'s keys begin in the heap (a view's: its base's), the heap refreshed if they lie beyond it. */
function keysAt(s: StateViews, id: number): number {
  if (id + KEYS > s.heap.length) s.refresh();
  const base = s.heap[id + BASE];
  const at = (base === 0 ? id : base) + KEYS;
  if (at + 2 * s.heap[id + N] > s.heap.length) s.refresh();
  return at;
}

/**
 * The length of the shortest prefix of record `id`'s keys that holds every key of `keys` (distinct keys; a few: each
 * is looked for in `keys`), or -1 when the record does not hold them all. A view holds them iff its length is at least
 * its base's (one scan of the base serves all its views).
 */
export function prefixHoldingAll(s: StateViews, id: number, keys: readonly number[]): number {
  const at = keysAt(s, id);
  const heap = s.heap;
  let held = 0;
  for (let i = at, end = i + 2 * heap[id + N]; i < end && held < keys.length; i += 2)
    if (keys.includes(heap[i] * TWO32 + (heap[i + 1] >>> 0)) && ++held === keys.length)
      return (i - at) / 2 + 1;
  return held === keys.length ? 0 : -1;
}

/** The keys of record `id` as a new array, in their stored order (a view's: its base's first n). */
export function locksetKeys(s: StateViews, id: number): number[] {
  const at = keysAt(s, id);
  const heap = s.heap;
  const n = heap[id + N];
  const ls: number[] = new Array(n);
  for (let i = 0; i < n; i++) ls[i] = heap[at + 2 * i] * TWO32 + (heap[at + 2 * i + 1] >>> 0);
  return ls;
}

/** The keys of record `id` as a new set (a walk's starting lockset). */
export function locksetOf(s: StateViews, id: number): Set<number> {
  return new Set(locksetKeys(s, id));
}
