/**
 * Collection of the live synchronization event list with partially-eager evaluation (PLDI'07 §5.4), run by the
 * thread whose append made it due (`../memory/state.ts` `CTL.gcAt`), after its list lock: the three steps and their
 * invariant are in `../memory/sync-list.ts`.
 *
 * For Goldilocks, the cut keeps the last {@link EAGER_MIN} cells (and more when the scan is long) and every Info
 * starting before it — in every page of every word table — gets its lockset evaluated up to the cut, stored
 * explicitly (`../memory/locksets.ts`). Infos of one start (an owner at a position, or an explicit lockset) share
 * one evaluation and its record; all starts are evaluated together, bit-parallel, in one pass over the cells
 * (`./batch.ts`), and consecutive starts that end with equal locksets share one record; an evaluated lockset that holds
 * every thread that can still access memory keeps only its threads (`LaneBatch.prune`, {@link liveThreads}), and a start
 * that holds them all already is not evaluated but given the record of those threads ({@link saturatedStarts}; while
 * one thread has ever run, that thread alone). The next
 * collection is due when the list has grown by max(EAGER_MIN, 2 × pages scanned, Infos moved) cells, so the scan
 * costs at most half a page and one Info moved per cell (a page of per-word lists holds up to 8 Infos per thread, and
 * sharedmap's test moved ~240,000 Infos over 21,000 pages each time: collections every 2 × pages took ~40% of its
 * workers' time). A collection whose pass or records would pass its {@link Budget} is deferred until the list has
 * doubled ({@link partiallyEager}).
 * The online peers, which never walk the list, collect up to the chunk of the list's end every
 * {@link PEER_STRETCH} cells.
 */

import { SyncKind } from '../../model/sync.js';
import {
  chainBase,
  locksetKeys,
  locksetOwner,
  locksetSize,
  locksetStart,
  prefixHoldingAll,
  releaseLockset,
  retainLockset,
  storeLockset,
  storeView,
} from '../memory/locksets.js';
import {
  CELL,
  CHUNK_MASK,
  CHUNK_SHIFT,
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
import {
  advancePositions,
  mapCells,
  reclaim,
  tryLockCollector,
  unlockCollector,
} from '../memory/sync-list.js';
import { LIVE_DETECTORS } from '../options.js';
import { LaneBatch } from './batch.js';
import { ChainBatch, type ChainResult } from './chains.js';
import { Info, objectKey, type Shadow, threadKey } from './goldilocks.js';
import { isPending, isRecordMark, MARK, PAGE_INTS, PAIRED, tablePages } from './table.js';

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
    let base: number;
    let alone: boolean;
    lock(s, s.ctl, CTL.listLock);
    try {
      end = s.ctl[CTL.listEnd];
      base = s.ctl[CTL.listBase];
      if (end < s.ctl[CTL.gcAt]) return; // collected by the thread before
      cut = (walks ? end - EAGER_MIN : end) & ~CHUNK_MASK;
      if (walks) advancePositions(s, cut);
      // a fork appends its cell under this lock: none yet, none before the cut
      alone = rawAtomics.load(s.ctl, CTL.forks) === 0 && rawAtomics.load(s.ctl, CTL.threadCount) === 1;
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
    const scanned = walks ? partiallyEager(s, shadow, cut, alone, cut - base) : 0;
    lock(s, s.ctl, CTL.listLock);
    try {
      if (scanned === undefined) {
        // deferred: nothing reclaimed, tried again once the list has doubled
        shadow.counts[STAT.eagerDeferred]++;
        s.ctl[CTL.gcAt] = end + Math.max(EAGER_MIN, end - base);
        return;
      }
      shadow.counts[STAT.cellsCollected] += reclaim(s, cut);
      s.ctl[CTL.gcAt] = end + (walks ? Math.max(EAGER_MIN, scanned) : PEER_STRETCH);
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
  } finally {
    unlockCollector(s);
  }
}

/** A distinct start of the Infos before the cut: an owner at a position, or an explicit lockset record. */
interface Start {
  /** List position the lockset is evaluated from. */
  pos: number;
  /** The owner (implicit {owner}), or -1. */
  owner: number;
  /** The explicit lockset record (retained for the run), or 0. */
  id: number;
  /** When `id` is a chain's record or a view of one (`../memory/locksets.ts` `chainBase`): that record, else 0. */
  base: number;
  /** The record of the evaluated lockset (one reference held for the run), 0 until evaluated. */
  record: number;
}

/** Lanes of one bit-parallel pass (`./batch.ts`): a row of an element is LANES_MAX / 32 Int32 words. */
const LANES_MAX = 1 << 14;
/**
 * Cells the list may keep (64 MiB) while collections are deferred: past them a collection runs whatever its records
 * take, as the collections before deferral did (the list's storage is bounded: `LIST_MAX` of `../memory/state.ts`).
 */
const DEFERRED_CELLS_MAX = 1 << 22;

/**
 * What the passes of one collection may still use ({@link evaluateStarts}): past it, the collection is deferred, for
 * its records would take more than the cells they free. Lanes that each hold the objects released after them
 * (thousands of Atomics.store to distinct words while the main thread waits: no lane holds every thread, none is
 * pruned) make records quadratic in the releases between two collections.
 */
interface Budget {
  /** Keys the records may still hold in all. */
  keys: number;
  /** Int32 words a pass's rows may take (`LaneBatch.matrixWords`). */
  matrixWords: number;
}

/**
 * The budget of a collection that frees `freed` cells: 8 keys per cell (a key takes 8 bytes of the shadow heap, a cell
 * 16) and 2^20 more, and 32 MiB of rows; none once the list keeps {@link DEFERRED_CELLS_MAX} cells.
 */
const budgetOf = (freed: number): Budget =>
  freed >= DEFERRED_CELLS_MAX ? unbounded() : { keys: 8 * freed + (1 << 20), matrixWords: 1 << 23 };
const unbounded = (): Budget => ({ keys: Number.POSITIVE_INFINITY, matrixWords: Number.POSITIVE_INFINITY });

/**
 * Step 2: every Info starting before `cut` starts at `cut`, with its lockset evaluated up to there. Three scans:
 * the distinct starts are collected from every page, evaluated together by bit-parallel passes over the list
 * (`./batch.ts`), then each Info is moved to its start's record. An Info whose start appeared between the scans (a
 * walk cached its lockset meanwhile) is evaluated alone, a pass of one start. The explicit records seen are
 * retained until the end, so none is freed and reused for another lockset while the scans run.
 *
 * Deferred, no Info moved, when the passes would pass a {@link Budget} for the `freed` cells: the Infos keep their
 * starts and the cells stay, as if no collection had been due (the list of a lazy evaluation: 16 bytes per cell, and
 * longer walks), and every thread's position raised to `cut` stays valid (`../memory/sync-list.ts` step 1).
 * @returns the run's cost in cells of list growth that pay for it: max(2 × word table pages scanned, Infos moved);
 * undefined when deferred.
 */
function partiallyEager(
  s: StateViews,
  shadow: Shadow,
  cut: number,
  alone: boolean,
  freed: number,
): number | undefined {
  shadow.counts[STAT.eagerRuns]++;
  /** Starts by key ({@link startKey}). */
  const starts = new Map<number, Start>();
  // after the cut was fixed: every thread forked before it is flagged by now (or the threads are not pruned for)
  const live = alone ? [threadKey(shadow.t)] : liveThreads(s);
  if (alone) shadow.counts[STAT.eagerAlone]++;
  try {
    const pages = forEachPage(s, (page) => {
      const mark = s.heap[page + MARK];
      if (isPending(s.heap, mark) || mark === PAIRED) shadow.splitPage(page); // its pending accesses, its odd list
      collectStarts(s, page, cut, starts);
    });
    if (!evaluateStarts(s, shadow, [...starts.values()], cut, live, budgetOf(freed))) return undefined;
    let moved = 0;
    forEachPage(s, (page) => {
      if (isRecordMark(s.heap[page + MARK])) shadow.splitPage(page); // patterned: a list per word, each its position
      shadow.ownList(page); // a shared list is never written (Shadow.shareList): the page's own copy is
      moved += movePage(s, shadow, page, cut, starts, live);
      shadow.compact(page);
    });
    shadow.counts[STAT.eagerInfos] += moved;
    return Math.max(2 * pages, moved);
  } finally {
    for (const st of starts.values()) {
      if (st.record !== 0) releaseLockset(s, st.record);
      if (st.id !== 0) releaseLockset(s, st.id);
    }
  }
}

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
 * The key of a start in a collection's map: an owner at a list position (≥ 0: positions are Int32), or an explicit
 * lockset record `id` (its negation).
 */
const startKey = (owner: number, pos: number, id: number): number => (id === 0 ? owner * 2 ** 31 + pos : -id);

/** Calls `fn(e, key)` for each Info of page `page` (lock held) that starts before `cut`, `key` naming its start. */
function forEachInfoBefore(
  s: StateViews,
  page: number,
  cut: number,
  fn: (e: number, key: number, pos: number, id: number) => void,
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
      if (pos < cut) fn(e, startKey(heap[e + Info.OWNER], pos, id), pos, id);
      e = s.heap[e + Info.NEXT];
    }
  }
}

/**
 * Adds the starts of page `page`'s Infos before `cut` to `starts`, retaining each explicit record once; of a
 * patterned page (`Pages.pattern` of `./pages.ts`), its first word's Infos and its last Info at each other word's position.
 */
function collectStarts(s: StateViews, page: number, cut: number, starts: Map<number, Start>): void {
  const add = (e: number, key: number, pos: number, id: number): void => {
    if (starts.has(key)) return;
    if (id !== 0) retainLockset(s, id);
    starts.set(key, newStart(s, e, pos, id));
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
    if (pos >= 0 && pos < cut) add(last, startKey(heap[last + Info.OWNER], pos, 0), pos, 0);
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

/** A start of Info `e` (its word's lock held): its owner at `pos` when `id` is 0, else its explicit record `id`. */
const newStart = (s: StateViews, e: number, pos: number, id: number): Start => ({
  pos,
  owner: id === 0 ? s.heap[e + Info.OWNER] : -1,
  id,
  base: id === 0 ? 0 : chainBase(s, id),
  record: 0,
});

/**
 * Evaluates `starts` up to `cut` (each its record, with one reference): those of an owner and the views of a record as
 * chains of nested locksets ({@link evaluateChains}), the other explicit records as bit lanes ({@link evaluateLanes}),
 * after the saturated starts are given their record ({@link saturatedStarts}); a lockset that holds every thread of
 * `live` keeps only its threads.
 * @returns false, and stops, when a pass's rows or its records would pass `budget` (its keys left are counted down;
 * then some starts have records, the others none); true without a budget.
 */
function evaluateStarts(
  s: StateViews,
  shadow: Shadow,
  starts: Start[],
  cut: number,
  live: number[] | undefined,
  budget: Budget = unbounded(),
): boolean {
  const rest = live === undefined ? starts : saturatedStarts(s, shadow, starts, cut, live);
  const chained = rest.filter((st) => st.id === 0 || st.base !== 0);
  shadow.counts[STAT.eagerChained] += chained.length;
  return (
    evaluateChains(s, chained, cut, live, budget) &&
    evaluateLanes(
      s,
      rest.filter((st) => st.id !== 0 && st.base === 0),
      cut,
      live,
      budget,
    )
  );
}

/**
 * One chain of nested lanes (`./chains.ts`): the views of one record, longest first, then starts of the record's owner
 * by position, each of which begins as {owner}, a subset of every lane before it (the owner is its base's first key).
 */
interface Chain {
  owner: number;
  views: Start[];
  owned: Start[];
}

/**
 * The chains of `starts` (owners' starts and views): a record's views continue with its owner's starts when none of
 * those is before the views' start (the common case: every Info before the last cut was moved to it); otherwise, or
 * for a second record of the owner, each is a chain of its own.
 */
function chainsOf(s: StateViews, starts: Start[]): Chain[] {
  const owned = new Map<number, Start[]>();
  const views = new Map<number, Start[]>();
  const push = (m: Map<number, Start[]>, k: number, st: Start) => {
    const a = m.get(k);
    if (a === undefined) m.set(k, [st]);
    else a.push(st);
  };
  for (const st of starts) {
    if (st.id === 0) push(owned, st.owner, st);
    else push(views, st.base, st);
  }
  for (const a of owned.values()) a.sort((x, y) => x.pos - y.pos);
  const chains: Chain[] = [];
  for (const [base, vs] of views) {
    vs.sort((x, y) => locksetSize(s, y.id) - locksetSize(s, x.id));
    const owner = locksetOwner(s, base);
    const after = owned.get(owner);
    const joins = after !== undefined && after[0].pos >= vs[0].pos;
    if (joins) owned.delete(owner);
    chains.push({ owner, views: vs, owned: joins ? after : [] });
  }
  for (const [owner, a] of owned) chains.push({ owner, views: [], owned: a });
  return chains;
}

/**
 * {@link evaluateStarts} of the owners' starts and the views (`starts`): one pass over the list for all their chains
 * (`./chains.ts`), each chain's locksets stored as one record and views of its prefixes (`storeView`), the pruned
 * lanes' as records of their threads.
 */
function evaluateChains(
  s: StateViews,
  starts: Start[],
  cut: number,
  live: number[] | undefined,
  budget: Budget,
): boolean {
  if (starts.length === 0) return true;
  const chains = chainsOf(s, starts);
  /** Where each chain's lanes enter: its views together (lane -1) at their start, each owner's start at its own. */
  const entries: { pos: number; chain: number; lane: number }[] = [];
  chains.forEach((ch, c) => {
    if (ch.views.length > 0) entries.push({ pos: ch.views[0].pos, chain: c, lane: -1 });
    ch.owned.forEach((st, i) => {
      entries.push({ pos: st.pos, chain: c, lane: ch.views.length + i });
    });
  });
  entries.sort((a, b) => a.pos - b.pos || a.chain - b.chain || a.lane - b.lane);
  const batch = new ChainBatch(chains.length);
  let next = 0;
  const enterAt = (p: number) => {
    for (; next < entries.length && entries[next].pos <= p; next++) {
      const { chain, lane } = entries[next];
      const ch = chains[chain];
      if (lane >= 0) batch.enter(chain, lane, [threadKey(ch.owner)]);
      else
        batch.enterPrefixes(
          chain,
          0,
          locksetKeys(s, ch.views[0].id),
          ch.views.map((v) => locksetSize(s, v.id)),
        );
    }
  };
  const passed = forEachCell(s, entries[0].pos, cut, (p, kind, u, a, b) => {
    enterAt(p);
    if (kind === SyncKind.Commit) {
      if (a + b > s.heap.length) s.refresh();
      batch.applyCommit(threadKey(u), s.heap, a, a + b);
    } else batch.apply(kind, threadKey(u), objectKey(a, b));
    return batch.matrixWords <= budget.matrixWords;
  });
  if (!passed) return false;
  enterAt(cut);
  const results = chains.map((ch, c) =>
    batch.results(c, ch.views.length + ch.owned.length, threadKey(ch.owner), live),
  );
  let keys = 0;
  for (const r of results) {
    keys += r.keys.length;
    r.pruned.forEach((ls, lane) => {
      if (lane === 0 || ls !== r.pruned[lane - 1]) keys += ls.length;
    });
  }
  if (keys > budget.keys) return false;
  budget.keys -= keys;
  chains.forEach((ch, c) => {
    storeChain(s, [...ch.views, ...ch.owned], results[c], cut, ch.owner);
  });
  return true;
}

/**
 * Gives each of a chain's `lanes` its record from `r` (one reference each): a pruned lane a record of its threads,
 * another the chain's record (`owner`'s, evaluated up to `cut`) or a view of its prefix; consecutive lanes with equal
 * locksets share one.
 */
function storeChain(s: StateViews, lanes: Start[], r: ChainResult, cut: number, owner: number): void {
  const base = r.lengths.some((n) => n >= 0) ? storeLockset(s, r.keys, cut, owner) : 0;
  let record = 0;
  let last: number | number[] | undefined;
  lanes.forEach((st, lane) => {
    const n = r.lengths[lane];
    const ls = n < 0 ? r.pruned[lane] : n;
    if (ls === last) retainLockset(s, record);
    else if (n < 0) record = storeLockset(s, r.pruned[lane], cut);
    else if (n === r.keys.length) {
      retainLockset(s, base);
      record = base;
    } else record = storeView(s, base, n);
    last = ls;
    st.record = record;
  });
  if (base !== 0) releaseLockset(s, base);
}

/**
 * {@link evaluateStarts} of the explicit records that are not views (`all`): in passes of at most {@link LANES_MAX}
 * starts in order of position, each applying the cells from its first start to `cut` once for all its lanes
 * (`./batch.ts`).
 */
function evaluateLanes(
  s: StateViews,
  all: Start[],
  cut: number,
  live: number[] | undefined,
  budget: Budget,
): boolean {
  all.sort((a, b) => a.pos - b.pos);
  for (let from = 0; from < all.length; from += LANES_MAX) {
    const lanes = all.slice(from, from + LANES_MAX);
    const batch = new LaneBatch(lanes.length);
    let next = 0;
    const passed = forEachCell(s, lanes[0].pos, cut, (p, kind, u, a, b) => {
      for (; next < lanes.length && lanes[next].pos === p; next++)
        batch.enter(next, locksetKeys(s, lanes[next].id));
      if (kind === SyncKind.Commit) {
        if (a + b > s.heap.length) s.refresh();
        batch.applyCommit(threadKey(u), s.heap, a, a + b);
      } else batch.apply(kind, threadKey(u), objectKey(a, b));
      return batch.matrixWords <= budget.matrixWords;
    });
    if (!passed) return false;
    for (; next < lanes.length; next++) batch.enter(next, locksetKeys(s, lanes[next].id));
    if (live !== undefined) batch.prune(live);
    const keys = batch.keyCount();
    if (keys > budget.keys) return false;
    budget.keys -= keys;
    let last: number[] | undefined;
    let record = 0;
    batch.results().forEach((ls, lane) => {
      if (ls === last)
        retainLockset(s, record); // equal to the lane before: its record shared
      else record = storeLockset(s, ls, cut);
      last = ls;
      lanes[lane].record = record;
    });
  }
  return true;
}

/**
 * Gives each start of `all` whose lockset holds every thread of `live` already (saturated: an owner alone, or an
 * explicit record, ⊇ `live`) the record of `live` at `cut`, without a pass over the list.
 * @returns the others, to evaluate.
 *
 * Exact as {@link LaneBatch.prune} is, and for the same reasons: no rule of Figure 5 removes an element of a lockset
 * during the stretch, so the evaluated lockset holds `live` too, and a check asks only whether its thread is in the
 * lockset (PLDI'07 Theorem 1). Every thread that may still check is in `live` or is forked later by one that is,
 * which adds it to both locksets (rule 6). So a single-threaded set-up that takes thousands of atomic locks
 * (sharedmap's `map()` over 373,804 buckets, docs/RESULTS.md) does not store, at each collection, locksets of all the
 * locks released since each start, nor does a thread that alone still runs (its atomic accesses to thousands of words,
 * after the join of the workers that wrote them).
 */
function saturatedStarts(s: StateViews, shadow: Shadow, all: Start[], cut: number, live: number[]): Start[] {
  const rest: Start[] = [];
  let record = 0;
  /** Per base of views, its {@link prefixHoldingAll} of `live`. */
  const bases = new Map<number, number>();
  const holding = (id: number): number => {
    const known = bases.get(id);
    if (known !== undefined) return known;
    const n = prefixHoldingAll(s, id, live);
    bases.set(id, n);
    return n;
  };
  for (const st of all) {
    const saturated =
      st.id === 0
        ? live.length === 1 && live[0] === threadKey(st.owner)
        : st.base === 0
          ? prefixHoldingAll(s, st.id, live) >= 0
          : holding(st.base) >= 0 && locksetSize(s, st.id) >= holding(st.base);
    if (!saturated) {
      rest.push(st);
      continue;
    }
    shadow.counts[STAT.eagerSaturated]++;
    if (record === 0) record = storeLockset(s, live, cut);
    else retainLockset(s, record);
    st.record = record; // each start holds one reference, as a pass leaves it
  }
  return rest;
}

/**
 * Calls `fn` with the position, kind, thread and `a`, `b` words of each cell at list positions [from, to), until it
 * returns false. @returns whether every cell was given.
 */
function forEachCell(
  s: StateViews,
  from: number,
  to: number,
  fn: (p: number, kind: number, u: number, a: number, b: number) => boolean,
): boolean {
  mapCells(s, from, to);
  const list = s.list;
  for (let p = from; p < to; p++) {
    const c = s.chunks[p >> CHUNK_SHIFT] + (p & CHUNK_MASK) * CELL;
    if (!fn(p, list[c], list[c + 1], list[c + 2], list[c + 3])) return false;
  }
  return true;
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
  starts: Map<number, Start>,
  live: number[] | undefined,
): number {
  let moved = 0;
  forEachInfoBefore(s, page, cut, (e, key, pos, id) => {
    let st = starts.get(key);
    if (st === undefined) {
      // started between the scans: evaluated alone, as the others are (its explicit record retained for the run)
      st = newStart(s, e, pos, id);
      if (id !== 0) retainLockset(s, id);
      evaluateStarts(s, shadow, [st], cut, live);
      starts.set(key, st);
    }
    retainLockset(s, st.record);
    s.heap[e + Info.LS] = st.record;
    if (id !== 0) releaseLockset(s, id);
    moved++;
  });
  return moved;
}
