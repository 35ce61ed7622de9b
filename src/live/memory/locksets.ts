/**
 * The explicit lockset store of the live detector (PLDI'07 §5.4, partially-eager evaluation): locksets evaluated up
 * to a list position, kept in the shadow heap for the Infos that start from them (`../shadow/goldilocks.ts`: an
 * Info's lockset word, 0 = the implicit {owner} at the Info's `pos`).
 *
 * A record: [`refs`, `start` (the list position it is evaluated up to), `n`, `next` (free-list link), then the n
 * keys as (high, low) Int32 pairs] — a key is a thread id or an object key `a * 2^32 + (b >>> 0)`, exact in a
 * double. Records are immutable once made; `refs` counts the Infos that point to it (atomically: an Info is
 * retained and released under its word's check lock, and two Infos of one record may be on different pages).
 * The last release frees the record to the free list of its size class (8 << k words), under `CTL.lsLock`; a
 * record is allocated from there or from the heap. Not hash-consed: one evaluation shares its record among the
 * Infos it serves (`../shadow/eager.ts`), and a record lives only while an Info starts from it.
 */
import { allocHeap, CTL, LS_CLASSES, lock, rawAtomics, type StateViews, unlock } from './state.js';

const REFS = 0;
const START = 1;
const N = 2;
const NEXT = 3;
const KEYS = 4;
const TWO32 = 2 ** 32;

/** The size class of a record of `n` keys (a record past the largest class is never freed). */
const classOf = (n: number): number => {
  let k = 0;
  while (8 << k < KEYS + 2 * n) k++;
  return k;
};

/**
 * Stores `ls` (distinct keys), evaluated up to list position `start`, with one reference.
 * @returns the record's heap index (non-zero). @throws RangeError when the heap is exhausted.
 */
export function storeLockset(
  s: StateViews,
  ls: ReadonlySet<number> | readonly number[],
  start: number,
): number {
  const n = 'size' in ls ? ls.size : ls.length;
  const k = classOf(n);
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
  const heap = s.heap;
  heap[id + START] = start;
  heap[id + N] = n;
  let i = id + KEYS;
  for (const key of ls) {
    heap[i++] = Math.floor(key / TWO32);
    heap[i++] = (key % TWO32) | 0;
  }
  rawAtomics.store(heap, id + REFS, 1);
  return id;
}

/** One more Info points to record `id`. */
export function retainLockset(s: StateViews, id: number): void {
  if (id + KEYS > s.heap.length) s.refresh();
  rawAtomics.add(s.heap, id + REFS, 1);
}

/** One Info less points to record `id`; the last frees it. */
export function releaseLockset(s: StateViews, id: number): void {
  if (id + KEYS > s.heap.length) s.refresh();
  if (rawAtomics.sub(s.heap, id + REFS, 1) !== 1) return;
  const k = classOf(s.heap[id + N]);
  if (k >= LS_CLASSES) return;
  lock(s, s.ctl, CTL.lsLock);
  try {
    s.heap[id + NEXT] = s.ctl[CTL.lsFree + k];
    s.ctl[CTL.lsFree + k] = id;
  } finally {
    unlock(s.ctl, CTL.lsLock);
  }
}

/** The list position record `id` is evaluated up to (where a walk from it starts). */
export function locksetStart(s: StateViews, id: number): number {
  if (id + KEYS > s.heap.length) s.refresh();
  return s.heap[id + START];
}

/** The shadow heap, refreshed if record `id` lies beyond the thread's view of it. */
function recordHeap(s: StateViews, id: number): Int32Array {
  if (id + KEYS > s.heap.length || id + KEYS + 2 * s.heap[id + N] > s.heap.length) s.refresh();
  return s.heap;
}

/** Whether record `id` holds every key of `keys` (distinct keys; a few: each is looked for in `keys`). */
export function locksetHoldsAll(s: StateViews, id: number, keys: readonly number[]): boolean {
  const heap = recordHeap(s, id);
  let held = 0;
  for (let i = id + KEYS, end = i + 2 * heap[id + N]; i < end && held < keys.length; i += 2)
    if (keys.includes(heap[i] * TWO32 + (heap[i + 1] >>> 0))) held++;
  return held === keys.length;
}

/** The keys of record `id` as a new set (a walk's starting lockset). */
export function locksetOf(s: StateViews, id: number): Set<number> {
  const heap = recordHeap(s, id);
  const ls = new Set<number>();
  for (let i = id + KEYS, end = i + 2 * heap[id + N]; i < end; i += 2)
    ls.add(heap[i] * TWO32 + (heap[i + 1] >>> 0));
  return ls;
}
