/**
 * The evaluation step of a collection (PLDI'07 §5.4, partially-eager evaluation; `./eager.ts` finds the starts and
 * moves the Infos): the locksets of the distinct starts before the cut, evaluated up to it and stored as records
 * (`../memory/locksets.ts`). A start whose lockset holds every thread that can still access memory is given their
 * record unevaluated ({@link saturatedStarts}); an owner's starts and the views of a chain's record are evaluated as
 * chains of nested locksets, one record and views of its prefixes per chain (`./chains.ts`); the other explicit records
 * bit-parallel, a lane each (`./batch.ts`).
 */
import { SyncKind } from '../../model/sync.js';
import {
  chainBase,
  locksetKeys,
  locksetOwner,
  locksetSize,
  prefixHoldingAll,
  releaseLockset,
  retainLockset,
  storeLockset,
  storeView,
} from '../memory/locksets.js';
import { CELL, CHUNK_MASK, CHUNK_SHIFT, STAT, type StateViews } from '../memory/state.js';
import { mapCells } from '../memory/sync-list.js';
import { LaneBatch } from './batch.js';
import { ChainBatch, type ChainResult } from './chains.js';
import { Info, objectKey, type Shadow, threadKey } from './goldilocks.js';

/** A distinct start of the Infos before the cut: an owner at a position, or an explicit lockset record. */
export interface Start {
  /** List position the lockset is evaluated from. */
  pos: number;
  /** The owner (implicit {owner}), or -1. */
  owner: number;
  /** The explicit lockset record (retained for the run), or 0. */
  id: number;
  /** When `id` is a chain's record or a view of one (`../memory/locksets.ts` `chainBase`): that record, else 0. */
  base: number;
  /** The latest list position of an access whose Info starts here (`locksetReach`). */
  reach: number;
  /** The record of the evaluated lockset (one reference held for the run), 0 until evaluated. */
  record: number;
}

/** Lanes of one bit-parallel pass (`./batch.ts`): a row of an element is LANES_MAX / 32 Int32 words. */
const LANES_MAX = 1 << 14;
/** A start of Info `e` (its word's lock held): its owner at `pos` when `id` is 0, else its explicit record `id`. */
export const newStart = (s: StateViews, e: number, pos: number, id: number): Start => ({
  pos,
  owner: id === 0 ? s.heap[e + Info.OWNER] : -1,
  id,
  base: id === 0 ? 0 : chainBase(s, id),
  reach: id === 0 ? pos : s.heap[e + Info.POS],
  record: 0,
});

/**
 * Evaluates `starts` up to `cut` (each its record, with one reference): those of an owner and the views of a record as
 * chains of nested locksets ({@link evaluateChains}), the other explicit records as bit lanes ({@link evaluateLanes}),
 * after the saturated starts are given their record ({@link saturatedStarts}); a lockset that holds every thread of
 * `live` keeps only its threads.
 */
export function evaluateStarts(
  s: StateViews,
  shadow: Shadow,
  starts: Start[],
  cut: number,
  live: number[] | undefined,
): void {
  const chained: Start[] = [];
  const lanes: Start[] = [];
  for (const st of live === undefined ? starts : saturatedStarts(s, shadow, starts, cut, live))
    (st.id === 0 || st.base !== 0 ? chained : lanes).push(st);
  shadow.counts[STAT.eagerChained] += chained.length;
  evaluateChains(s, chained, cut, live);
  evaluateLanes(s, lanes, cut, live);
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
function evaluateChains(s: StateViews, starts: Start[], cut: number, live: number[] | undefined): void {
  if (starts.length === 0) return;
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
  forEachCell(s, entries[0].pos, cut, (p, kind, u, a, b) => {
    enterAt(p);
    if (kind === SyncKind.Commit) {
      if (a + b > s.heap.length) s.refresh();
      batch.applyCommit(threadKey(u), s.heap, a, a + b);
    } else batch.apply(kind, threadKey(u), objectKey(a, b));
  });
  enterAt(cut);
  chains.forEach((ch, c) => {
    const lanes = [...ch.views, ...ch.owned];
    storeChain(s, lanes, batch.results(c, lanes.length, threadKey(ch.owner), live), cut, ch.owner);
  });
}

/**
 * Gives each of a chain's `lanes` its record from `r` (one reference each): a pruned lane a record of its threads,
 * another the chain's record (`owner`'s, evaluated up to `cut`) or a view of its prefix; consecutive lanes with equal
 * locksets share one.
 */
function storeChain(s: StateViews, lanes: Start[], r: ChainResult, cut: number, owner: number): void {
  const lockset = (lane: number) => (r.lengths[lane] < 0 ? r.pruned[lane] : r.lengths[lane]);
  // each record's reach (`locksetReach`): the latest access of the lanes up to the last one it serves
  const reach: number[] = [];
  lanes.forEach((st, lane) => {
    reach.push(Math.max(st.reach, lane > 0 ? reach[lane - 1] : -1));
  });
  for (let lane = lanes.length - 2; lane >= 0; lane--)
    if (lockset(lane) === lockset(lane + 1)) reach[lane] = reach[lane + 1];
  const full = r.lengths.indexOf(r.keys.length);
  const base = r.lengths.some((n) => n >= 0)
    ? storeLockset(s, r.keys, cut, owner, full < 0 ? -1 : reach[full])
    : 0;
  let record = 0;
  lanes.forEach((st, lane) => {
    const n = r.lengths[lane];
    if (lane > 0 && lockset(lane) === lockset(lane - 1)) retainLockset(s, record);
    else if (n < 0) record = storeLockset(s, r.pruned[lane], cut, -1, reach[lane]);
    else if (n === r.keys.length) {
      retainLockset(s, base);
      record = base;
    } else record = storeView(s, base, n, reach[lane]);
    st.record = record;
  });
  if (base !== 0) releaseLockset(s, base);
}

/**
 * {@link evaluateStarts} of the explicit records that are not views (`all`): in passes of at most {@link LANES_MAX}
 * starts in order of position, each applying the cells from its first start to `cut` once for all its lanes
 * (`./batch.ts`).
 */
function evaluateLanes(s: StateViews, all: Start[], cut: number, live: number[] | undefined): void {
  all.sort((a, b) => a.pos - b.pos);
  for (let from = 0; from < all.length; from += LANES_MAX) {
    const lanes = all.slice(from, from + LANES_MAX);
    const batch = new LaneBatch(lanes.length);
    let next = 0;
    forEachCell(s, lanes[0].pos, cut, (p, kind, u, a, b) => {
      for (; next < lanes.length && lanes[next].pos === p; next++)
        batch.enter(next, locksetKeys(s, lanes[next].id));
      if (kind === SyncKind.Commit) {
        if (a + b > s.heap.length) s.refresh();
        batch.applyCommit(threadKey(u), s.heap, a, a + b);
      } else batch.apply(kind, threadKey(u), objectKey(a, b));
    });
    for (; next < lanes.length; next++) batch.enter(next, locksetKeys(s, lanes[next].id));
    if (live !== undefined) batch.prune(live);
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
 * Calls `fn` with the position, kind, thread and `a`, `b` words of each cell at list positions [from, to).
 */
function forEachCell(
  s: StateViews,
  from: number,
  to: number,
  fn: (p: number, kind: number, u: number, a: number, b: number) => void,
): void {
  mapCells(s, from, to);
  const list = s.list;
  for (let p = from; p < to; p++) {
    const c = s.chunks[p >> CHUNK_SHIFT] + (p & CHUNK_MASK) * CELL;
    fn(p, list[c], list[c + 1], list[c + 2], list[c + 3]);
  }
}
