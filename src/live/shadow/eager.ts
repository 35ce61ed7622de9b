/**
 * Collection of the live synchronization event list with partially-eager evaluation (PLDI'07 §5.4), run by the
 * thread whose append made it due (`../memory/state.ts` `CTL.gcAt`), after its list lock: the three steps and their
 * invariant are in `../memory/sync-list.ts`.
 *
 * For Goldilocks, the cut keeps the last {@link EAGER_MIN} cells (and more when the scan is long) and every Info
 * starting before it — in every page of every word table — gets its lockset evaluated up to the cut, stored
 * explicitly (`../memory/locksets.ts`). Infos of one start (an owner at a position, or an explicit lockset) share
 * one evaluation and its record; the starts are evaluated together in one pass over the cells, an owner's as a chain of
 * nested locksets stored as one record and views of its prefixes (`./evaluate.ts`), and a lockset that holds every
 * thread that can still access memory ({@link liveThreads}) keeps only its threads; while one thread has ever run,
 * every start gets that thread alone. The next
 * collection is due when the list has grown by max(EAGER_MIN, 2 × pages scanned, Infos moved) cells, so the scan
 * costs at most half a page and one Info moved per cell (a page of per-word lists holds up to 8 Infos per thread, and
 * sharedmap's test moved ~240,000 Infos over 21,000 pages each time: collections every 2 × pages took ~40% of its
 * workers' time).
 * The online peers, which never walk the list, collect up to the chunk of the list's end every
 * {@link PEER_STRETCH} cells.
 */

import { locksetStart, releaseLockset, retainLockset } from '../memory/locksets.js';
import {
  CHUNK_MASK,
  CTL,
  DEAD,
  EAGER_MIN,
  FORKED,
  holds,
  lock,
  PEER_STRETCH,
  rawAtomics,
  STAT,
  type StateViews,
  unlock,
} from '../memory/state.js';
import { advancePositions, reclaim, tryLockCollector, unlockCollector } from '../memory/sync-list.js';
import { LIVE_DETECTORS } from '../options.js';
import { evaluateStarts, newStart, type Start } from './evaluate.js';
import { Info, type Shadow, threadKey } from './goldilocks.js';
import {
  isPending,
  isRecordMark,
  MARK,
  PAGE_INTS,
  PAIRED,
  SHARED_SLOT,
  tablePages,
  UNIFORM,
} from './table.js';

/**
 * Collects the list if it is due and no other thread is collecting it. Call with no lock held but possibly the
 * check lock of one page (an atomic operation's), which the scan then uses as its own.
 */
export function collectList(s: StateViews, shadow: Shadow): void {
  s.gcDue = false;
  if (!tryLockCollector(s)) return;
  try {
    const walks = LIVE_DETECTORS[s.state.settings.detector] === 'goldilocks';
    let end: number;
    let cut: number;
    let alone: boolean;
    lock(s, s.ctl, CTL.listLock);
    try {
      end = s.ctl[CTL.listEnd];
      if (end < s.ctl[CTL.gcAt]) return; // collected by the thread before
      cut = (walks ? end - EAGER_MIN : end) & ~CHUNK_MASK;
      if (walks) advancePositions(s, cut);
      // a fork appends its cell under this lock: none yet, none before the cut
      alone = rawAtomics.load(s.ctl, CTL.forks) === 0 && rawAtomics.load(s.ctl, CTL.threadCount) === 1;
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
    const scanned = walks ? partiallyEager(s, shadow, cut, alone) : 0;
    lock(s, s.ctl, CTL.listLock);
    try {
      shadow.counts[STAT.cellsCollected] += reclaim(s, cut);
      s.ctl[CTL.gcAt] = end + (walks ? Math.max(EAGER_MIN, scanned) : PEER_STRETCH);
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
  } finally {
    unlockCollector(s);
  }
}

/**
 * Step 2: every Info starting before `cut` starts at `cut`, with its lockset evaluated up to there. Three scans:
 * the distinct starts are collected from every page, evaluated together (`./evaluate.ts` `evaluateStarts`), then each
 * Info is moved to its start's record. An Info whose start appeared between the scans (a
 * walk cached its lockset meanwhile) is evaluated alone, a pass of one start. The explicit records seen are
 * retained until the end, so none is freed and reused for another lockset while the scans run.
 * @returns the run's cost in cells of list growth that pay for it: max(2 × word table pages scanned, Infos moved).
 */
function partiallyEager(s: StateViews, shadow: Shadow, cut: number, alone: boolean): number {
  shadow.counts[STAT.eagerRuns]++;
  const starts = new Starts();
  /**
   * Per shared list moved (its header, `Shadow.shareList`), the shared list its copy became: the other pages that point
   * to it point there, not each to a copy moved and shared again (every Info of a list moves to its start's record,
   * the same for each page: a 4 MiB ring read whole is 65,536 pages on one list). Both headers hold a reference of
   * the collection's until it ends, so that neither is freed and made another list meanwhile.
   */
  const movedLists = new Map<number, number>();
  // after the cut was fixed: every thread forked before it is flagged by now (or the threads are not pruned for)
  const live = alone ? [threadKey(shadow.t)] : liveThreads(s);
  if (alone) shadow.counts[STAT.eagerAlone]++;
  try {
    const seen = new Set<number>(); // the shared lists whose starts are collected
    const pages = forEachPage(s, (page) => {
      const mark = s.heap[page + MARK];
      if (isPending(s.heap, mark) || mark === PAIRED) shadow.splitPage(page); // its pending accesses, its odd list
      const h = sharedListOf(s.heap, page);
      if (h !== 0 && seen.has(h)) return; // the same Infos (a header freed and reused meanwhile: see movePage)
      if (h !== 0) seen.add(h);
      collectStarts(s, page, cut, starts);
    });
    evaluateStarts(s, shadow, starts.all, cut, live);
    let moved = 0;
    try {
      forEachPage(s, (page) => {
        if (isRecordMark(s.heap[page + MARK])) shadow.splitPage(page); // patterned: a list per word, each its position
        const h = sharedListOf(s.heap, page);
        const to = h === 0 ? undefined : movedLists.get(h);
        if (to !== undefined) {
          shadow.repoint(page, to);
          return;
        }
        if (h !== 0) shadow.addRefs(h, 1); // kept until the end: not freed, so never another list meanwhile
        shadow.ownList(page); // a shared list is never written (Shadow.shareList): the page's own copy is
        moved += movePage(s, shadow, page, cut, starts, live);
        shadow.compact(page);
        if (h === 0) return;
        const h2 = sharedListOf(s.heap, page);
        if (h2 === 0) shadow.addRefs(h, -1);
        else {
          shadow.addRefs(h2, 1);
          movedLists.set(h, h2);
        }
      });
    } finally {
      for (const [h, h2] of movedLists) {
        shadow.addRefs(h, -1);
        shadow.addRefs(h2, -1);
      }
    }
    shadow.counts[STAT.eagerInfos] += moved;
    return Math.max(2 * pages, moved);
  } finally {
    for (const st of starts.all) {
      if (st.record !== 0) releaseLockset(s, st.record);
      if (st.id !== 0) releaseLockset(s, st.id);
    }
  }
}

/** The header of the shared list uniform page `page` points to, or 0 (`Shadow.shareList`). */
const sharedListOf = (heap: Int32Array, page: number): number =>
  heap[page + MARK] === UNIFORM ? heap[page + SHARED_SLOT] : 0;

/** Calls `fn` for every word table page of the shadow heap, its check lock held. @returns how many pages. */
function forEachPage(s: StateViews, fn: (page: number) => void): number {
  let pages = 0;
  const buffers = rawAtomics.load(s.ctl, CTL.nextBuffer);
  for (let id = 1; id <= buffers; id++) {
    if (3 * id + 2 >= s.buffers.length) s.refresh();
    if (rawAtomics.load(s.buffers, 3 * id + 2) === 0) continue; // not registered yet: no Info
    const [first, end] = tablePages(s.buffers[3 * id], s.buffers[3 * id + 1]);
    for (let page = first; page < end; page += PAGE_INTS) {
      pages++;
      if (page + PAGE_INTS > s.heap.length) s.refresh();
      const mine = holds(s, s.heap, page);
      if (!mine) lock(s, s.heap, page);
      try {
        fn(page);
      } finally {
        if (!mine) unlock(s.heap, page);
      }
    }
  }
  return pages;
}

/**
 * A collection's distinct starts: an owner's by list position, an explicit lockset record's by its id. Maps of small
 * integers: one keyed by owner and position together (a double) boxed its key at each of a collection's hundreds of
 * thousands of lookups (bench/programs/claim-results.mjs).
 */
class Starts {
  /** Every start, in the order added. */
  readonly all: Start[] = [];
  /** Per owner, its starts by position. */
  private readonly owned: (Map<number, Start> | undefined)[] = [];
  private readonly records = new Map<number, Start>();

  /** The start of `owner` at `pos` (`id` 0), or of the explicit record `id`, if added. */
  get(owner: number, pos: number, id: number): Start | undefined {
    return id !== 0 ? this.records.get(id) : this.owned[owner]?.get(pos);
  }

  /** Adds `st`, the start of `owner` at `pos` (`id` 0) or of the explicit record `id`. */
  add(owner: number, pos: number, id: number, st: Start): void {
    this.all.push(st);
    if (id !== 0) this.records.set(id, st);
    else {
      while (this.owned.length <= owner) this.owned.push(undefined);
      let m = this.owned[owner];
      if (m === undefined) this.owned[owner] = m = new Map();
      m.set(pos, st);
    }
  }
}

/**
 * Calls `fn(e, owner, pos, id)` for each Info `e` of page `page` (lock held) that starts before `cut`: its owner,
 * and its start's position and explicit record (0: none).
 */
function forEachInfoBefore(
  s: StateViews,
  page: number,
  cut: number,
  fn: (e: number, owner: number, pos: number, id: number) => void,
): void {
  const heads = s.heap[page + MARK]; // > 0: the heads of words 1–7 (`./table.ts`); else the first word's list only
  if (heads + 8 > s.heap.length) s.refresh();
  for (let k = 0; k < (heads > 0 ? 8 : 1); k++) {
    let e = s.heap[k === 0 ? page + 1 : heads + k];
    while (e !== 0) {
      if (e + Info.SIZE > s.heap.length) s.refresh();
      const heap = s.heap;
      const id = heap[e + Info.LS];
      const pos = id === 0 ? heap[e + Info.POS] : locksetStart(s, id);
      if (pos < cut) fn(e, heap[e + Info.OWNER], pos, id);
      e = s.heap[e + Info.NEXT];
    }
  }
}

/**
 * Adds the starts of page `page`'s Infos before `cut` to `starts`, retaining each explicit record once; of a
 * patterned page (`Pages.pattern` of `./pages.ts`), its first word's Infos and its last Info at each other word's position.
 */
function collectStarts(s: StateViews, page: number, cut: number, starts: Starts): void {
  const add = (e: number, owner: number, pos: number, id: number): void => {
    const st = starts.get(owner, pos, id);
    if (st !== undefined) st.reach = Math.max(st.reach, id === 0 ? pos : s.heap[e + Info.POS]);
    else {
      if (id !== 0) retainLockset(s, id);
      starts.add(owner, pos, id, newStart(s, e, pos, id));
    }
  };
  forEachInfoBefore(s, page, cut, add);
  const heap = s.heap;
  const mark = heap[page + MARK];
  if (!isRecordMark(mark) || heap[page + 1] === 0) return; // not patterned
  const positions = -mark;
  let last = heap[page + 1];
  while (heap[last + Info.NEXT] !== 0) last = heap[last + Info.NEXT];
  if (heap[last + Info.LS] !== 0) return; // its start, the explicit lockset's, is the first word's
  for (let w = 1; w < 8; w++) {
    const pos = heap[positions + w] - 1;
    if (pos >= 0 && pos < cut) add(last, heap[last + Info.OWNER], pos, 0);
  }
}

/**
 * The threads that may still access memory, as thread keys: the main thread (0) and every thread with a fork cell
 * (`FORKED`, `../threads.ts`), but the dead (`DEAD`: joined); every thread started later is forked by one of them.
 * Undefined, and no lockset pruned, when that cannot be told: a fork cell counted (`CTL.forks`) whose thread is not
 * flagged yet, or a thread attached (`CTL.threadCount`) without a fork cell.
 */
function liveThreads(s: StateViews): number[] | undefined {
  const forks = rawAtomics.load(s.ctl, CTL.forks);
  const attached = rawAtomics.load(s.ctl, CTL.threadCount);
  s.refresh(); // the thread table grows with each fork
  const live: number[] = [];
  let forked = 0;
  for (let t = 0; t < s.threads.length; t++) {
    const flags = rawAtomics.load(s.threads, t);
    if (t !== 0 && (flags & FORKED) === 0) continue;
    if (t !== 0) forked++;
    if ((flags & DEAD) === 0) live.push(threadKey(t));
  }
  return forked < forks || attached > 1 + forked ? undefined : live;
}

/**
 * Moves the Infos of page `page` (lock held) that start before `cut` to it, each with its start's evaluated lockset
 * ({@link evaluateStarts}).
 * @returns how many.
 */
function movePage(
  s: StateViews,
  shadow: Shadow,
  page: number,
  cut: number,
  starts: Starts,
  live: number[] | undefined,
): number {
  let moved = 0;
  forEachInfoBefore(s, page, cut, (e, owner, pos, id) => {
    let st = starts.get(owner, pos, id);
    if (st === undefined) {
      // started between the scans: evaluated alone, as the others are (its explicit record retained for the run)
      st = newStart(s, e, pos, id);
      if (id !== 0) retainLockset(s, id);
      evaluateStarts(s, shadow, [st], cut, live);
      starts.add(owner, pos, id, st);
    }
    retainLockset(s, st.record);
    s.heap[e + Info.LS] = st.record;
    if (id !== 0) releaseLockset(s, id);
    moved++;
  });
  return moved;
}
