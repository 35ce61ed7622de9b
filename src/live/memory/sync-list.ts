/**
 * Collection of the live synchronization event list (PLDI'07 §5.4), whose cells `./state.ts` {@link appendCell}
 * appends in chunks of {@link CHUNK} cells. Positions count every cell ever appended; the live cells are
 * [`CTL.listBase`, `CTL.listEnd`), and the slots of the chunks before `listBase` are recycled for new chunks.
 *
 * **Who points into the list.** A lockset walk (`../shadow/goldilocks.ts`) starts at an Info's start position —
 * the `pos` of its access, or the start of its explicit lockset (`./locksets.ts`) — and reads the cells from there
 * to the list's end, without the list lock, under the check lock of the Info's word. New Infos start at their
 * thread's position (`positions[t]`, `Shadow.pos`), read under the word's check lock.
 *
 * **A collection** (one thread at a time: `CTL.gcLock`, taken with a try) up to `cut` (a chunk boundary before the
 * list's end):
 * 1. under the list lock, every thread's position becomes at least `cut` — valid for a thread: any position between
 *    its last cell and its next one gives the same walk result, and it has no cell after its last one yet;
 * 2. every Info starting before `cut` is evaluated up to `cut` (partially-eager evaluation, `../shadow/eager.ts`)
 *    and starts there with an explicit lockset: one word table page at a time, under the page's check lock;
 * 3. under the list lock, `listBase = cut`, then the chunks before `cut` go to the free stack.
 *
 * **Invariant**: once step 2 is done, no Info starts before `cut`, and no walk that reads a cell before `cut` is
 * running. A walk from an Info holds the Info's page lock; it either ended before step 2 locked that page, or
 * started after, from a start the step moved to `cut` or later. An Info recorded after step 1 starts at its
 * thread's position, at least `cut`; one recorded before step 1 is in its page when step 2 locks it (the page lock
 * orders the record and the scan). So step 3 recycles only cells nobody reads or will read.
 *
 * The online peers (FastTrack, Eraser) never walk the list: they skip step 2 and collect up to the chunk of the
 * list's end. A recorded run (`../record.ts`) collects nothing (`CTL.gcAt` = {@link NEVER}): the record needs
 * every cell.
 *
 * **Threads that die.** A collector stopped by `worker.terminate()` holds `gcLock` dead: the next thread due takes it
 * over once the holder is marked dead (`./state.ts` header). Each step leaves the structures readable when stopped
 * between two writes: an Info moves with one store (its lockset word), `listBase` is stored before the slots are
 * pushed (a stop in between leaks slots, never reuses a live one), and a slot is pushed with one store of the
 * stack's head. A thread that dies after it saw the collection due only delays it: every append past
 * `CTL.gcAt` at a chunk boundary makes its thread due.
 */
import {
  CELL,
  CHUNK_INTS,
  CHUNK_MASK,
  CHUNK_SHIFT,
  CTL,
  DEAD,
  rawAtomics,
  type StateViews,
} from './state.js';

/**
 * Takes the collector's lock if it is free or its holder died.
 * @returns whether the calling thread holds it now.
 */
export function tryLockCollector(s: StateViews): boolean {
  const ctl = s.ctl;
  const cur = rawAtomics.compareExchange(ctl, CTL.gcLock, 0, s.self);
  if (cur === 0) return true;
  if (cur - 1 >= s.threads.length) s.refresh();
  const dead = cur - 1 < s.threads.length && (rawAtomics.load(s.threads, cur - 1) & DEAD) !== 0;
  return dead && rawAtomics.compareExchange(ctl, CTL.gcLock, cur, s.self) === cur;
}

/** Releases the collector's lock. */
export function unlockCollector(s: StateViews): void {
  rawAtomics.store(s.ctl, CTL.gcLock, 0);
}

/** Step 1: every thread's position becomes at least `cut`. List lock held. */
export function advancePositions(s: StateViews, cut: number): void {
  s.refresh(); // every thread ensured so far (a later one starts at the list's end then, past `cut`)
  const p = s.positions;
  for (let t = 0; t < p.length; t++) raisePosition(p, t, cut);
}

/** `positions[t] = max(positions[t], pos)`, atomically. */
export function raisePosition(positions: Int32Array, t: number, pos: number): void {
  for (;;) {
    const cur = rawAtomics.load(positions, t);
    if (cur >= pos || rawAtomics.compareExchange(positions, t, cur, pos) === cur) return;
  }
}

/**
 * Step 3: the cells before `cut` (a chunk boundary) are collected: `listBase` moves to `cut`, their chunks' slots go
 * to the free stack. List lock held.
 * @returns the number of cells collected.
 */
export function reclaim(s: StateViews, cut: number): number {
  const ctl = s.ctl;
  const base = ctl[CTL.listBase];
  if (cut <= base) return 0;
  rawAtomics.store(ctl, CTL.listBase, cut);
  const chunks = s.chunks;
  const list = s.list;
  for (let c = base >> CHUNK_SHIFT; c < cut >> CHUNK_SHIFT; c++) {
    const at = chunks[c];
    list[at] = ctl[CTL.freeSlots];
    rawAtomics.store(ctl, CTL.freeSlots, at / CHUNK_INTS + 1);
  }
  return cut - base;
}

/** Refreshes the views of `s` when the cells at positions [from, to) lie past the chunks and list they map. */
export function mapCells(s: StateViews, from: number, to: number): void {
  if (
    to > from &&
    ((to - 1) >> CHUNK_SHIFT >= s.chunks.length || s.ctl[CTL.listSlots] * CHUNK_INTS > s.list.length)
  )
    s.refresh();
}

/**
 * The cells at positions [from, to) in list order, 4 Int32 each (`CELL`), copied out of their chunks; all must
 * be live (not collected).
 */
export function listCells(s: StateViews, from: number, to: number): Int32Array {
  mapCells(s, from, to);
  const out = new Int32Array((to - from) * CELL);
  for (let p = from; p < to; ) {
    const stop = Math.min(to, (p | CHUNK_MASK) + 1);
    const at = s.chunks[p >> CHUNK_SHIFT] + (p & CHUNK_MASK) * CELL;
    out.set(s.list.subarray(at, at + (stop - p) * CELL), (p - from) * CELL);
    p = stop;
  }
  return out;
}
