/**
 * Collection of the live synchronization event list with partially-eager evaluation (PLDI'07 §5.4), run by the
 * thread whose append made it due (`../memory/state.ts` `CTL.gcAt`), after its list lock: the three steps and their
 * invariant are in `../memory/sync-list.ts`.
 *
 * For Goldilocks, the cut keeps the last {@link EAGER_MIN} cells (and more when the scan is long) and every Info
 * starting before it — in every page of every word table — gets its lockset evaluated up to the cut
 * ({@link Shadow.evaluate}), stored explicitly (`../memory/locksets.ts`). Infos of one start (an owner at a
 * position, or an explicit lockset) share one evaluation and its record. The next collection is due when the
 * list has grown by max(EAGER_MIN, 2 × pages scanned) cells, so the scan costs at most half a page per cell.
 * The online peers, which never walk the list, collect up to the chunk of the list's end every
 * {@link PEER_STRETCH} cells.
 */
import { locksetOf, locksetStart, releaseLockset, retainLockset, storeLockset } from '../memory/locksets.js';
import {
  CHUNK_MASK,
  CTL,
  EAGER_MIN,
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
import { Info, PAGE_INTS, type Shadow, threadKey, UNIFORM } from './goldilocks.js';

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
    lock(s, s.ctl, CTL.listLock);
    try {
      end = s.ctl[CTL.listEnd];
      if (end < s.ctl[CTL.gcAt]) return; // collected by the thread before
      cut = (walks ? end - EAGER_MIN : end) & ~CHUNK_MASK;
      if (walks) advancePositions(s, cut);
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
    const pages = walks ? partiallyEager(s, shadow, cut) : 0;
    lock(s, s.ctl, CTL.listLock);
    try {
      shadow.counts[STAT.cellsCollected] += reclaim(s, cut);
      s.ctl[CTL.gcAt] = end + (walks ? Math.max(EAGER_MIN, 2 * pages) : PEER_STRETCH);
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
  } finally {
    unlockCollector(s);
  }
}

/**
 * Step 2: every Info starting before `cut` starts at `cut`, with its lockset evaluated up to there.
 * @returns the number of word table pages scanned.
 */
function partiallyEager(s: StateViews, shadow: Shadow, cut: number): number {
  shadow.counts[STAT.eagerRuns]++;
  /** Evaluations of this run by their start (`owner@pos`, or `#record`), each holding one reference until the end. */
  const done = new Map<string, number>();
  let pages = 0;
  const buffers = rawAtomics.load(s.ctl, CTL.nextBuffer);
  try {
    for (let id = 1; id <= buffers; id++) {
      if (3 * id + 2 >= s.buffers.length) s.refresh();
      if (rawAtomics.load(s.buffers, 3 * id + 2) === 0) continue; // not registered yet: no Info
      const base = s.buffers[3 * id];
      const end = base + 2 * s.buffers[3 * id + 1];
      for (let page = base; page < end; page += PAGE_INTS) {
        pages++;
        if (page + PAGE_INTS > s.heap.length) s.refresh();
        const mine = holds(s, s.heap, page);
        if (!mine) lock(s, s.heap, page);
        try {
          shadow.counts[STAT.eagerInfos] += evaluatePage(s, shadow, page, cut, done);
        } finally {
          if (!mine) unlock(s.heap, page);
        }
      }
    }
  } finally {
    for (const record of done.values()) releaseLockset(s, record);
  }
  return pages;
}

/** Moves the Infos of page `page` (lock held) that start before `cut` to it. @returns how many. */
function evaluatePage(
  s: StateViews,
  shadow: Shadow,
  page: number,
  cut: number,
  done: Map<string, number>,
): number {
  let moved = 0;
  for (let k = 1; k < PAGE_INTS; k += 2) {
    let e = s.heap[page + k];
    if (e === UNIFORM) continue;
    while (e !== 0) {
      if (e + Info.SIZE > s.heap.length) s.refresh();
      const heap = s.heap;
      const id = heap[e + Info.LS];
      const start = id === 0 ? heap[e + Info.POS] : locksetStart(s, id);
      if (start < cut) {
        const key = id === 0 ? `${heap[e + Info.OWNER]}@${start}` : `#${id}`;
        let record = done.get(key);
        if (record === undefined) {
          const ls = id === 0 ? new Set<number>([threadKey(heap[e + Info.OWNER])]) : locksetOf(s, id);
          record = storeLockset(s, shadow.evaluate(ls, start, cut), cut);
          done.set(key, record);
        }
        retainLockset(s, record);
        s.heap[e + Info.LS] = record;
        if (id !== 0) releaseLockset(s, id);
        moved++;
      }
      e = s.heap[e + Info.NEXT];
    }
  }
  return moved;
}
