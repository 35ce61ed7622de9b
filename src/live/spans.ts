/**
 * **Range checks** (BigFoot's coalesced checks, Rhodes, Flanagan, Freund, PLDI 2017): the runtime's `span` hook
 * (`../hooks/contract.ts` {@link Runtime.span}), called before a loop that `../instrument/ranges.ts` found to access
 * exactly the elements `first + stride·t` (t < count) of each of its views, with no synchronization, early exit or
 * other code inside. It checks all those accesses at once, a run of words at a time (one page lock per 8 words,
 * uniform pages once), in two passes:
 *
 * 1. {@link Shadow.clearRun} on every run: would any access conflict? If so, nothing is recorded and the answer is
 *    false: the loop runs its per-access checks, which throw `DataRaceException` at the racing access, after the
 *    accesses before it happened, and never for one that does not happen.
 * 2. {@link Shadow.accessRun} on every run, recording the accesses, and the same-epoch filter of each word.
 *
 * **Same state as the per-access checks.** Each element is recorded once per kind, with the site of its first
 * access of that kind in the loop: per view, the accesses (same stride ±1) are taken in the order in which they
 * first reach each element (a larger first index reaches an element earlier, for stride 1), each recording the
 * elements not reached before. Reads are recorded before writes: the rewriter lets a view be written only where
 * each write follows a read of the same element in its iteration, or where it is only written, so the first access
 * of every element is the one recorded first. Words this thread already covered in this epoch (the filter of
 * `./views.ts`) are skipped, as the per-access checks skip them. Two view variables whose elements overlap, views
 * of elements other than 8 bytes, growable buffers and strides other than 0 (one access) or ±1 go to the per-access
 * checks. Out-of-bounds indices touch no memory (ECMA-262 §10.4.5.15–16) and are not recorded.
 *
 * Between the passes another thread may access the same words: then pass 2 may find a conflict (a true race, with an
 * access of that thread made meanwhile); the accesses recorded before it stay recorded, and the loop runs its
 * per-access checks, which report the race at its access.
 */
import type { SiteFunction } from '../hooks/contract.js';
import { STAT } from './memory/state.js';
import type { Shadow } from './shadow/goldilocks.js';
import { Access } from './shadow/goldilocks.js';

/** What a range check needs of the view behind a TypedArray (`./views.ts` View). */
export interface SpanView {
  id: number;
  base: number;
  off: number;
  bpe: number;
  len: number;
  filter: Uint32Array;
}

/** A thread's range checks: its checker, views, epoch and sites. */
export interface SpanContext {
  shadow: Shadow;
  /** The view of `o` when it is over shared memory, else undefined. */
  viewAt(o: ArrayBufferView): SpanView | undefined;
  /** This thread's epoch (`./views.ts`). */
  epoch(): number;
  /** The string id of site `i` of module `m`. */
  siteOf(m: SiteFunction, i: number): number;
  /** Counts `n` word checks (flushing the counters now and then). */
  counted(n: number): void;
}

const TYPED_TAG = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Int8Array.prototype),
  Symbol.toStringTag,
)?.get as (this: unknown) => string | undefined;
/** Iterations past which the check is left to the accesses. */
const MAX_COUNT = 2 ** 31;
/** Fields per access in a span's list (see `Hooks.span`). */
const FIELDS = 6;

/** One run of words to check: `[word, words, flags, site]` flattened, `view` its view. */
interface Runs {
  words: number[];
  views: SpanView[];
}

/**
 * The range check of a loop (see the file header and `Hooks.span`). @returns true when every access was checked
 * and recorded, false when none was (or, see the file header, after a race found in the second pass).
 */
export function checkSpan(
  c: SpanContext,
  m: SiteFunction,
  lo: number,
  hi: number,
  step: number,
  inclusive: number,
  ints: readonly unknown[],
  list: readonly unknown[],
): boolean {
  if (!c.shadow.rangeChecks) return false;
  for (const x of ints) if (!Number.isSafeInteger(x)) return false;
  if (!Number.isSafeInteger(lo) || typeof hi !== 'number') return false;
  const count = inclusive
    ? hi >= lo
      ? Math.floor((hi - lo) / step) + 1
      : 0
    : hi > lo
      ? Math.ceil((hi - lo) / step)
      : 0;
  if (count === 0) {
    c.shadow.counts[STAT.ranges]++; // no iteration: no access
    return true;
  }
  if (!(count <= MAX_COUNT)) return false;
  const n = list.length / FIELDS;
  const views: Array<SpanView | undefined> = [];
  for (let k = 0; k < n; k++) {
    const o = list[FIELDS * k];
    const tag = TYPED_TAG.call(o);
    if (tag === undefined || tag === 'BigInt64Array' || tag === 'BigUint64Array') return false;
    const first = list[FIELDS * k + 2] as number;
    const stride = list[FIELDS * k + 3] as number;
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(first + stride * (count - 1))) return false;
    const v = c.viewAt(o as ArrayBufferView);
    if (v !== undefined && (v.bpe !== 8 || v.len < 0)) return false;
    views.push(v);
  }
  const runs: Runs = { words: [], views: [] };
  const hulls: number[] = []; // per group over shared memory: group, buffer id, first and end element offsets
  const groups = new Set<number>();
  for (let k = 0; k < n; k++) {
    const g = list[FIELDS * k + 1] as number;
    if (views[k] === undefined || groups.has(g)) continue;
    groups.add(g);
    if (!groupRuns(c, m, list, views, k, g, count, runs, hulls)) return false;
  }
  for (let a = 0; a < hulls.length; a += 4)
    for (let b = a + 4; b < hulls.length; b += 4)
      if (hulls[a + 1] === hulls[b + 1] && hulls[a + 2] < hulls[b + 3] && hulls[b + 2] < hulls[a + 3])
        return false; // two view variables over the same bytes: the order of their accesses matters
  const { shadow } = c;
  const w = runs.words;
  for (let r = 0; r < w.length; r += 4)
    if (!shadow.clearRun(runs.views[r / 4].base + 2 * w[r], w[r + 1], w[r + 2])) return false;
  const epoch = c.epoch();
  for (let r = 0; r < w.length; r += 4) {
    const v = runs.views[r / 4];
    const flags = w[r + 2];
    const done = shadow.accessRun(
      v.base + 2 * w[r],
      w[r + 1],
      Access.MASK,
      Access.MASK,
      flags,
      w[r + 3],
      true,
    );
    c.counted(done);
    const raced = shadow.lastConflict !== undefined;
    const bits = flags & Access.WRITE ? Access.MASK << 8 : Access.MASK;
    const filter = v.filter;
    for (let x = w[r], end = w[r] + done - (raced ? 1 : 0); x < end; x++) {
      const e = filter[x];
      filter[x] = (e >>> 16 === epoch ? e : epoch << 16) | bits;
    }
    if (raced) return false;
  }
  shadow.counts[STAT.ranges]++;
  return true;
}

/**
 * Adds to `runs` the words of the accesses of group `g` (the accesses of one view variable, the first at `k`, sites
 * in module `m`), reads
 * then writes, each element with the access that reaches it first, and its hull to `hulls`.
 * @returns false when the group's strides do not allow it (see the file header).
 */
function groupRuns(
  c: SpanContext,
  m: SiteFunction,
  list: readonly unknown[],
  views: Array<SpanView | undefined>,
  k: number,
  g: number,
  count: number,
  runs: Runs,
  hulls: number[],
): boolean {
  const v = views[k] as SpanView;
  const stride = list[FIELDS * k + 3] as number;
  const of: number[] = [];
  for (let x = k; x < views.length; x++) {
    if (list[FIELDS * x + 1] !== g) continue;
    if (list[FIELDS * x + 3] !== stride) return false;
    of.push(x);
  }
  if (stride !== 1 && stride !== -1 && !(stride === 0 && of.length === 1)) return false;
  const len = v.len;
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (const write of [false, true]) {
    const kinds = of.filter((x) => (write ? list[FIELDS * x + 4] !== 0 : list[FIELDS * x + 4] !== 1));
    // the access reaching an element first: the largest first index for stride 1, the smallest for -1 (stable)
    const firstOf = (x: number) => list[FIELDS * x + 2] as number;
    kinds.sort((a, b) => (stride === -1 ? firstOf(a) - firstOf(b) : firstOf(b) - firstOf(a)));
    let reached = stride === -1 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    for (const x of kinds) {
      const first = firstOf(x);
      let from: number;
      let to: number; // elements [from, to) not reached by an earlier access
      if (stride === -1) {
        from = Math.max(first - count + 1, reached);
        to = first + 1;
        reached = Math.max(reached, first + 1);
      } else {
        from = first;
        to = stride === 0 ? first + 1 : Math.min(first + count, reached);
        reached = Math.min(reached, first);
      }
      from = Math.max(from, 0);
      to = Math.min(to, len);
      if (from >= to) continue;
      lowest = Math.min(lowest, from);
      highest = Math.max(highest, to);
      addRuns(c, v, from, to, write, c.siteOf(m, list[FIELDS * x + 5] as number), runs);
    }
  }
  if (lowest < highest) hulls.push(g, v.id, v.off / 8 + lowest, v.off / 8 + highest);
  return true;
}

/** Adds the words of elements [from, to) of `v` that the same-epoch filter does not cover, as runs. */
function addRuns(
  c: SpanContext,
  v: SpanView,
  from: number,
  to: number,
  write: boolean,
  site: number,
  runs: Runs,
): void {
  const epoch = c.epoch();
  const filter = v.filter;
  const flags = write ? Access.WRITE : 0;
  const w0 = v.off / 8;
  let start = -1;
  for (let x = w0 + from, end = w0 + to; x <= end; x++) {
    let covered = true;
    if (x < end) {
      const e = filter[x];
      covered = e >>> 16 === epoch && (((write ? 0 : e) | (e >>> 8)) & Access.MASK) === Access.MASK;
    }
    if (!covered && start < 0) start = x;
    else if (covered && start >= 0) {
      runs.words.push(start, x - start, flags, site);
      runs.views.push(v);
      start = -1;
    }
  }
}
