/**
 * **Range checks** (BigFoot's coalesced checks, Rhodes, Flanagan, Freund, PLDI 2017): the runtime's `span` hook
 * (`../hooks/contract.ts` {@link Runtime.span}), called before a loop that `../instrument/ranges.ts` found to access
 * exactly the elements `first + stride·t` (t < count) of each of its views, with no synchronization, early exit or
 * other code inside. It checks all those accesses at once, as runs of words ({@link Shadow.accessRuns}: the check
 * locks of all their pages held, uniform pages once), in two passes: would any access conflict? If so, nothing is
 * recorded and the answer is false: the loop runs its per-access checks, which throw `DataRaceException` at the
 * racing access, after the accesses before it happened, and never for one that does not happen. Else every access
 * is recorded, and the same-epoch filter of each word (`./views.ts`).
 *
 * **Same state as the per-access checks.** Each element is recorded once per kind, with the site of its first
 * access of that kind in the loop: per view, the accesses (same stride ±1) are taken in the order in which they
 * first reach each element (a larger first index reaches an element earlier, for stride 1), each recording the
 * elements not reached before. Reads are recorded before writes: the rewriter lets a view be written only where
 * each write follows a read of the same element in its iteration, or where it is only written, so the first access
 * of every element is the one recorded first. An element the loop also writes is checked and recorded as its
 * write alone (see {@link Spans.group}: the same verdict and the same state). Words this thread already covered in
 * this epoch (the filter of `./views.ts`) are skipped, as the per-access checks skip them; the filter is read only
 * inside the hull of the words it covers in the epoch, and not in the longest run of reads recorded in the epoch
 * ({@link SpanView} `touched`). Elements smaller than a word are checked and recorded as runs of words with the
 * bytes they hold ({@link Spans.group}). Two view variables whose words overlap, growable buffers and strides other
 * than ±1, 0 and whole words apart (lanes) go to the per-access checks, as do loops of fewer than `MIN_RANGE_ITERATIONS` (`../hooks/names.ts`)
 * iterations. Out-of-bounds indices touch no memory (ECMA-262
 * §10.4.5.15–16) and are not recorded.
 *
 * Hot: called before each such loop. Its scratch arrays are kept from call to call ({@link Spans}).
 */
import type { SiteFunction, SpanCheck } from '../hooks/contract.js';
import { MIN_RANGE_ITERATIONS } from '../hooks/names.js';
import {
  type EpochFilter,
  FILTER_BLOCK,
  filterAddRun,
  filterAddStrided,
  filterBits,
  filterBlockVoid,
  filterCovers,
  filterNextBlock,
} from './filter.js';
import { STAT } from './memory/state.js';
import type { Shadow } from './shadow/goldilocks.js';
import { Access, RUN_FIELDS } from './shadow/goldilocks.js';
import { lockOf, PAGE_INTS } from './shadow/table.js';
import { CALL, FIELDS, type LoopPlan, LoopPlans, viewShape } from './span-plans.js';

/**
 * The number of iterations of `for (j = lo; j < hi; j += step)` (`j <= hi` when `inclusive` is 1, `j !== hi` when it
 * is 2), `lo` an integer and `step` a positive one: 0 when `hi` is NaN or not above `lo`; for `j !== hi`, -1 when `j`
 * never equals `hi` (`hi` below `lo`, not `lo` plus a multiple of `step`, or NaN: the loop runs until something else
 * stops it).
 */
export const iterations = (lo: number, hi: number, step: number, inclusive: number): number =>
  inclusive === 2
    ? hi >= lo && (hi - lo) % step === 0
      ? (hi - lo) / step
      : -1
    : inclusive
      ? hi >= lo
        ? Math.floor((hi - lo) / step) + 1
        : 0
      : hi > lo
        ? Math.ceil((hi - lo) / step)
        : 0;

/**
 * The {@link iterations} of a range-checked or covered loop (`Hooks.span`, `Hooks.covered`) from what its guard
 * passed: -1 when `lo` or one of `ints` (the integer variables of its bounds and indices) is not a safe integer, `hi`
 * not a number, or a `j !== hi` loop never reaches `hi`: the loop then takes its per-access checks.
 */
export function loopIterations(
  lo: number,
  hi: number,
  step: number,
  inclusive: number,
  ints: readonly unknown[],
): number {
  for (let k = 0; k < ints.length; k++) if (!Number.isSafeInteger(ints[k])) return -1;
  if (!Number.isSafeInteger(lo) || typeof hi !== 'number') return -1;
  return iterations(lo, hi, step, inclusive);
}

/**
 * What the element accesses and range checks keep of a view over shared memory (per thread): its buffer `id`, the
 * address `base` of the first word of the buffer's word table (`./shadow/table.ts`), `off` (byteOffset), `bpe` (bytes per element), `len` (its length,
 * -1 when it tracks a growable buffer's length), and `filter`/`epochs`: the same-epoch filter of `./filter.ts`
 * (per word of the buffer, the bytes this thread read and wrote in its current epoch after a check);
 * `touched` (per buffer, as `filter`, {@link TOUCHED} Int32): [epoch, first word, end word] of the words whose
 * filter entries were set in that epoch (a hull: {@link touch}), so that a range check scans the filter only there;
 * then [epoch, first word, end word] of the longest run of reads range checks recorded in that epoch, the latest
 * of equal ones (its words' entries cover reads until the epoch ends: entries only gain bits within an epoch), so
 * that a loop reading the same words again (lufact's pivot column, sor's row below) does not scan them; then the
 * index of the next to replace of the {@link LANES_KEPT} lanes of reads after it, [epoch, first word, end word, step]
 * each ({@link keepLane}).
 */
export interface SpanView extends EpochFilter {
  id: number;
  base: number;
  off: number;
  bpe: number;
  len: number;
  touched: Int32Array;
}

/** The lanes of reads a {@link SpanView}'s `touched` keeps ({@link keepLane}). */
const LANES_KEPT = 4;
/** The index in `touched` of its first lane of reads ({@link keepLane}); the one before holds the next to replace. */
const LANES_AT = 7;
/** Int32 of a {@link SpanView}'s `touched`. */
export const TOUCHED = LANES_AT + 4 * LANES_KEPT;

/**
 * Widens the hull `touched` ({@link SpanView}) by the words [from, to), whose filter entries were just set in
 * `epoch`: outside the hull of the current epoch, no filter entry covers an access.
 */
export function touch(touched: Int32Array, epoch: number, from: number, to: number): void {
  if (touched[0] !== epoch) {
    touched[0] = epoch;
    touched[1] = from;
    touched[2] = to;
    return;
  }
  if (from < touched[1]) touched[1] = from;
  if (to > touched[2]) touched[2] = to;
}

/**
 * The words [from, to), whose filter entries cover reads of all their bytes in `epoch`, become the run of reads of
 * `touched` ({@link SpanView}) when at least as long as the run it holds for `epoch`.
 */
function keepReads(touched: Int32Array, epoch: number, from: number, to: number): void {
  if (touched[3] !== epoch || to - from >= touched[5] - touched[4]) {
    touched[3] = epoch;
    touched[4] = from;
    touched[5] = to;
  }
}

/**
 * The lane of words `from + step·i` before word `to` (step 2 or more), whose filter entries cover reads of all their
 * bytes in `epoch`, becomes one of the {@link LANES_KEPT} lanes of reads of `touched` ({@link SpanView}), in place of
 * the oldest: a red-black sweep reads each row's lane of one colour in three iterations of its outer loop (as the row
 * below, its own row's neighbours, the row above), and the later two do not scan it ({@link lanesCovered}).
 */
function keepLane(touched: Int32Array, epoch: number, from: number, to: number, step: number): void {
  const at = LANES_AT + 4 * touched[LANES_AT - 1];
  touched[LANES_AT - 1] = (touched[LANES_AT - 1] + 1) % LANES_KEPT;
  touched[at] = epoch;
  touched[at + 1] = from;
  touched[at + 2] = to;
  touched[at + 3] = step;
}

/**
 * The lane of reads of words `from + step·i` before word `to`, less the words at its ends that a lane of reads of
 * `touched` in `epoch` ({@link keepLane}) holds: [first, end) in {@link lane}, empty when first ≥ end.
 */
function lanesCovered(touched: Int32Array, epoch: number, from: number, to: number, step: number): void {
  for (let k = 0; k < LANES_KEPT && from < to; k++) {
    const at = LANES_AT + 4 * k;
    const lf = touched[at + 1];
    const lt = touched[at + 2]; // the lane's last word + 1
    if (touched[at] !== epoch || touched[at + 3] !== step || (from - lf) % step !== 0) continue;
    if (from >= lf && from < lt) from = lt - 1 + step;
    const last = from + step * Math.floor((to - 1 - from) / step);
    if (from < to && last >= lf && last < lt) to = lf - step + 1;
  }
  lane[0] = from;
  lane[1] = to;
}

/** {@link lanesCovered}' answer. */
const lane = new Int32Array(2);

/**
 * The first of the words [from, to) inside the hull `touched` of `epoch` ({@link touch}), or `to` when none is; the
 * words inside then end at min(to, touched[2]).
 */
const hullStart = (touched: Int32Array, epoch: number, from: number, to: number): number =>
  touched[0] === epoch && Math.max(from, touched[1]) < Math.min(to, touched[2])
    ? Math.max(from, touched[1])
    : to;

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
  /** Whether this thread is the main thread alone, whose accesses need no check (`./alone.ts`). */
  alone(): boolean;
}

/** The `Symbol.toStringTag` getter of TypedArrays: the constructor's name for a TypedArray, else undefined. */
export const TYPED_TAG = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Int8Array.prototype),
  Symbol.toStringTag,
)?.get as (this: unknown) => string | undefined;
/** Iterations past which the check is left to the accesses. */
const MAX_COUNT = 2 ** 31;
/** Fields per access in a span's list (see `Hooks.span`). */
/**
 * Fields per run of words in {@link Spans.runs}: first word (of the view's buffer), words, flags, site, view (index
 * of its access), byte mask of each word, step (words from one of its words to the next: 1, or a lane's, {@link
 * Spans.group}).
 */
const RUN = 7;
/** The most words between consecutive words of a run whose pages are all those between its ends (a page holds 8). */
const DENSE_STEP = 8;

/**
 * `%TypedArray%.prototype.sort` as it was when this module was loaded, before the runtime patched it (`./intercept/`):
 * the page list is this thread's own (as `fill` in `./filter.ts`).
 */
const sortInts = Object.getPrototypeOf(Int8Array.prototype).sort as (this: Int32Array) => Int32Array;

/**
 * Do a word's filter bits `e` (`filterBits` of `./filter.ts`) cover an access of the bytes `mask`, a write when
 * `write` (bytes written cover reads and writes, bytes read only reads)?
 */
const coversBits = (e: number, write: boolean, mask: number): boolean =>
  (((write ? 0 : e) | (e >>> 8)) & mask) === mask;

/** The byte mask of bytes [lo, hi) of a word (0 ≤ lo < hi ≤ 8). */
const bytes = (lo: number, hi: number): number => (1 << hi) - (1 << lo);

/** A thread's range checks (see the file header), with the scratch arrays each call reuses. */
export class Spans {
  /** Per access of the current call: its view, when over shared memory. */
  private readonly views: Array<SpanView | undefined> = [];
  /**
   * Runs of words, {@link RUN} numbers each. Int32 (word indices of a buffer are below 2^31: `lockOf` masks them as
   * such): copied into {@link heapRuns}, they keep it an array of small integers, which the checker's page loops
   * index the heap with directly; doubles there (a Float64Array's) made each index a checked float-to-int conversion.
   */
  private runs = new Int32Array(64 * RUN);
  private nRuns = 0;
  /** The heap runs handed to the checker (four numbers each) and their pages. */
  private heapRuns: number[] = [];
  private pages = new Int32Array(1024);
  /** Per group over shared memory: buffer id, first and end word of its hull. */
  private readonly hulls: number[] = [];
  /** Accesses of one group and kind, in the order they first reach an element. */
  private readonly order: number[] = [];
  /** The elements one group reads and writes first ({@link reached}). */
  private readonly reads: number[] = [];
  private readonly writes: number[] = [];
  /** The plans of the last loops checked (`./span-plans.ts`), and the one being derived, if any. */
  private readonly plans = new LoopPlans();
  /** Per access of the current call: the shape of its view (`./span-plans.ts` `viewShape`). */
  private readonly shapes: number[] = [];
  private plan: LoopPlan | null = null;

  /**
   * @param minCount iterations below which a loop is left to its per-access checks (`MIN_RANGE_ITERATIONS` (`../hooks/names.ts`); the unit tests
   * of the runs take every loop)
   */
  constructor(
    private readonly c: SpanContext,
    private readonly minCount = MIN_RANGE_ITERATIONS,
  ) {}

  /**
   * The range check of a loop (see the file header and `Hooks.span`). @returns true when every access was checked
   * and recorded (or there is none), false when none was.
   */
  readonly check: SpanCheck = (m, lo, hi, step, inclusive, ints, list) => {
    const c = this.c;
    if (!c.shadow.rangeChecks) return false;
    if (c.alone()) return true; // none of its accesses needs a check or a record
    const count = loopIterations(lo, hi, step, inclusive, ints);
    if (count < 0) return false;
    if (count === 0) {
      c.shadow.counts[STAT.ranges]++; // no iteration: no access
      return true;
    }
    if (!(count <= MAX_COUNT) || count < this.minCount) return false;
    const n = list.length / FIELDS;
    const views = this.views;
    views.length = n;
    for (let k = 0; k < n; k++) {
      const o = list[FIELDS * k];
      const tag = TYPED_TAG.call(o);
      if (tag === undefined || tag === 'BigInt64Array' || tag === 'BigUint64Array') return false;
      const first = list[FIELDS * k + 2] as number;
      const stride = list[FIELDS * k + 3] as number;
      if (!Number.isSafeInteger(first) || !Number.isSafeInteger(first + stride * (count - 1))) return false;
      const v = c.viewAt(o as ArrayBufferView);
      if (v !== undefined && v.len < 0) return false;
      views[k] = v;
      this.shapes[k] = viewShape(v);
    }
    this.nRuns = 0;
    const hulls = this.hulls;
    hulls.length = 0;
    if (!this.planned(m, count, list, n)) {
      const plan = this.plans.repeats(m, count, list, n) ? this.plans.fresh() : null;
      plan?.start(m, count, list, n, this.shapes);
      this.plan = plan;
      for (let k = 0; k < n; k++) {
        const g = list[FIELDS * k + 1];
        let seen = views[k] === undefined;
        for (let x = 0; x < k && !seen; x++) seen = list[FIELDS * x + 1] === g;
        if (!seen && !this.group(m, list, k, count)) {
          plan?.drop();
          this.plan = null;
          return false;
        }
      }
      if (plan?.clamped) plan.drop();
      this.plan = null;
    }
    for (let a = 0; a < hulls.length; a += 3)
      for (let b = a + 3; b < hulls.length; b += 3)
        if (hulls[a] === hulls[b] && hulls[a + 1] < hulls[b + 2] && hulls[b + 1] < hulls[a + 2]) return false; // two view variables over the same bytes: the order of their accesses matters
    return this.record();
  };

  /**
   * Takes a plan of the loop `m` of `count` iterations with access list `list` (`n` accesses), when one has its shape
   * (`./span-plans.ts`): each of its intervals shifted, as {@link group} would derive them. @returns whether one was
   * taken (else nothing was done).
   */
  private planned(m: SiteFunction, count: number, list: readonly unknown[], n: number): boolean {
    const plans = this.plans;
    for (let i = 0; i < plans.length; i++) {
      const p = plans.at(i);
      if (!p.matches(m, count, list, n, this.shapes)) continue;
      if (this.replay(p, (list[2] as number) - p.first)) {
        plans.used(i);
        return true;
      }
    }
    return false;
  }

  /**
   * The intervals of plan `p` shifted by `d` indices ({@link elements}), with the hull of each group. @returns false,
   * having done nothing, when a group's lanes would differ (`d` not a multiple of its `per`: a matrix's next column)
   * or an interval would leave its view's elements (deriving would clamp it): all are tested first.
   */
  private replay(p: LoopPlan, d: number): boolean {
    const calls = p.calls;
    const groups = p.groups;
    for (let g = 0, c = 0; g < groups.length; g += 2) {
      const v = this.views[groups[g]] as SpanView;
      for (const end = groups[g + 1]; c < end; c += CALL) {
        const per = calls[c + 5];
        if (d % per !== 0) return false;
        const to = calls[c + 2] + d / per;
        if (calls[c + 1] + d / per < 0 || to > Math.floor((v.len - 1 - calls[c + 6]) / per) + 1) return false;
      }
    }
    for (let g = 0, c = 0; g < groups.length; g += 2) {
      const v = this.views[groups[g]] as SpanView;
      this.low = Number.POSITIVE_INFINITY;
      this.high = Number.NEGATIVE_INFINITY;
      for (const end = groups[g + 1]; c < end; c += CALL) {
        const per = calls[c + 5];
        const s = d / per;
        this.elements(
          calls[c],
          calls[c + 1] + s,
          calls[c + 2] + s,
          calls[c + 3] === 1,
          calls[c + 4],
          per,
          calls[c + 6],
        );
      }
      if (this.low < this.high) this.hulls.push(v.id, this.low, this.high);
    }
    return true;
  }

  /** Checks and records the runs (see {@link Shadow.accessRuns}), then the filter of their words. */
  private record(): boolean {
    const c = this.c;
    const runs = this.runs;
    const heapRuns = this.heapRuns;
    const order = this.order;
    heapRuns.length = 0;
    order.length = 0;
    for (let r = 0; r < this.nRuns; r++) {
      const v = this.views[runs[r * RUN + 4]] as SpanView;
      const first = v.base + runs[r * RUN];
      heapRuns.push(
        first,
        runs[r * RUN + 1],
        runs[r * RUN + 2],
        runs[r * RUN + 3],
        runs[r * RUN + 5],
        runs[r * RUN + 6],
      );
      // the runs by their first word (insertion sort: a loop has few), for the pages in ascending order
      let at = order.length;
      while (at > 0 && heapRuns[RUN_FIELDS * order[at - 1]] > first) at--;
      order.splice(at, 0, r);
    }
    const nPages = this.listPages();
    if (!c.shadow.accessRuns(heapRuns, this.pages, nPages)) return false;
    const epoch = c.epoch();
    let words = 0;
    for (let r = 0; r < this.nRuns * RUN; r += RUN) {
      const bits = runs[r + 2] & Access.WRITE ? runs[r + 5] << 8 : runs[r + 5];
      const v = this.views[runs[r + 4]] as SpanView;
      const touched = v.touched;
      const from = runs[r];
      const step = runs[r + 6];
      if (step === 1) {
        const end = from + runs[r + 1];
        filterAddRun(v, from, end, epoch, bits);
        touch(touched, epoch, from, end);
        if (bits === Access.MASK) keepReads(touched, epoch, from, end);
      } else {
        const end = from + step * (runs[r + 1] - 1) + 1;
        filterAddStrided(v, from, runs[r + 1], step, epoch, bits);
        touch(touched, epoch, from, end);
        if (bits === Access.MASK) keepLane(touched, epoch, from, end, step);
      }
      words += runs[r + 1];
    }
    c.counted(words);
    c.shadow.counts[STAT.ranges]++;
    return true;
  }

  /**
   * Lists in {@link pages} the pages of the runs {@link record} handed over ({@link heapRuns}, in {@link order}: by
   * first word), ascending, each once. @returns how many. A run of consecutive words, or of words at most
   * {@link DENSE_STEP} apart, has a word in every page between its ends: those pages are listed from the one after the
   * last listed. When a run's words are further apart (a column of a matrix), each run lists all its pages (that run
   * its words' pages), which are then sorted and their repeats dropped: a page listed before by a sparse run says
   * nothing of the pages before it.
   */
  private listPages(): number {
    const heapRuns = this.heapRuns;
    let sparse = false;
    for (const r of this.order) sparse ||= heapRuns[RUN_FIELDS * r + 5] > DENSE_STEP;
    let nPages = 0;
    let done = -1; // the last page listed (with sparse runs, every page of every run is listed, then sorted)
    for (const r of this.order) {
      const first = heapRuns[RUN_FIELDS * r];
      const step = heapRuns[RUN_FIELDS * r + 5];
      const words = heapRuns[RUN_FIELDS * r + 1];
      const last = lockOf(first + step * (words - 1));
      if (step > DENSE_STEP)
        for (let i = 0; i < words; i++) nPages = this.addPage(nPages, lockOf(first + step * i));
      else
        for (
          let p = sparse ? lockOf(first) : Math.max(lockOf(first), done + PAGE_INTS);
          p <= last;
          p += PAGE_INTS
        )
          nPages = this.addPage(nPages, p);
      if (last > done) done = last;
    }
    if (!sparse) return nPages;
    sortInts.call(this.pages.subarray(0, nPages));
    let n = 0;
    for (let k = 0; k < nPages; k++)
      if (n === 0 || this.pages[k] !== this.pages[n - 1]) this.pages[n++] = this.pages[k];
    return n;
  }

  /** Lists page `p` at index `n` of {@link pages}, grown when full. @returns n + 1. */
  private addPage(n: number, p: number): number {
    if (n === this.pages.length) {
      const more = new Int32Array(2 * n);
      more.set(this.pages);
      this.pages = more;
    }
    this.pages[n] = p;
    return n + 1;
  }

  /**
   * Adds the runs of the accesses of one view variable (its group number that of access `k`, the first of them;
   * sites in module `m`): reads then writes, each element with the access that reaches it first; and its hull. An
   * element the loop also writes gets no read run: the loop's accesses of it are checked and recorded as its write.
   * That is exact: the write is checked against every Info the read is (an Info conflicting with a read conflicts
   * with a write of its bytes), with the same verdict, and recording the write drops every record of the read (a
   * write replaces every Info on its bytes, `Shadow.record`), so the state left is the one the per-access checks
   * leave; the same-epoch filter's write bits cover reads.
   *
   * Strides ±1 reach consecutive elements: runs of words, the first and last with the bytes of their elements only
   * when elements are smaller than a word. Stride 0: one element per access, in the body's order. A stride of `per`
   * ≥ 2 elements spanning `q` whole words (`per · bpe` = 8q: crypt's `text[8 * blk + 3]` over a Uint8Array, q = 1; a
   * red-black sweep's `grid[i * n + j]`, `j += 2`, over a Float64Array, q = 2; a column `b[k * n + j]` of an n×n
   * Float64Array matrix, q = n) reaches one
   * element every q words, at the same bytes of each: the accesses are taken per *lane* `r` (their first index ≡ r
   * mod `per`), each lane as a stride of ±1 over its elements `r + per·c`, one run of every q-th word with the lane's
   * byte mask each. The lanes of one group never share an element, so each element is still reached by the accesses
   * that reach it per access, in the same order.
   * @returns false when the group's strides do not allow it (see the file header).
   */
  private group(m: SiteFunction, list: readonly unknown[], k: number, count: number): boolean {
    const v = this.views[k] as SpanView;
    const g = list[FIELDS * k + 1];
    const stride = list[FIELDS * k + 3] as number;
    for (let x = k; x < this.views.length; x++)
      if (list[FIELDS * x + 1] === g && list[FIELDS * x + 3] !== stride) return false;
    const bytesApart = Math.abs(stride) * v.bpe; // from an element to the access's next one
    const per = bytesApart >= 8 && bytesApart % 8 === 0 ? Math.abs(stride) : 1;
    if (per === 1 && stride !== 1 && stride !== -1 && stride !== 0) return false;
    this.low = Number.POSITIVE_INFINITY;
    this.high = Number.NEGATIVE_INFINITY;
    for (const lane of this.lanesOf(list, k, per)) {
      const reads = this.reached(list, k, count, 0, per, lane);
      const writes = this.reached(list, k, count, 1, per, lane);
      // the reads, without the elements written (the write intervals are disjoint: each element is reached once)
      for (let i = 0; i < reads.length; i += 3) {
        let from = reads[i];
        const to = reads[i + 1];
        const site = this.c.siteOf(m, reads[i + 2]);
        while (from < to) {
          let cut = to; // the first written element at or after `from`, and the end of its write interval
          let resume = to;
          for (let j = 0; j < writes.length; j += 3)
            if (writes[j + 1] > from && writes[j] < cut) {
              cut = Math.max(writes[j], from);
              resume = writes[j + 1];
            }
          if (from < cut) this.elements(k, from, cut, false, site, per, lane);
          from = resume;
        }
      }
      for (let i = 0; i < writes.length; i += 3)
        this.elements(k, writes[i], writes[i + 1], true, this.c.siteOf(m, writes[i + 2]), per, lane);
    }
    if (this.plan !== null) this.plan.groups.push(k, this.plan.calls.length);
    if (this.low < this.high) this.hulls.push(v.id, this.low, this.high);
    return true;
  }

  /**
   * The lanes of the group of access `k` (see {@link group}: `per` lanes, the residues mod `per` of first indices), those
   * its accesses are in, ascending ([0] when `per` is 1): a column of an n×n matrix is one lane of n.
   */
  private lanesOf(list: readonly unknown[], k: number, per: number): number[] {
    const lanes = this.lanes;
    lanes.length = 0;
    if (per === 1) {
      lanes.push(0);
      return lanes;
    }
    const g = list[FIELDS * k + 1];
    for (let x = k; x < this.views.length; x++) {
      if (list[FIELDS * x + 1] !== g) continue;
      const lane = (((list[FIELDS * x + 2] as number) % per) + per) % per;
      let at = lanes.length;
      while (at > 0 && lanes[at - 1] > lane) at--;
      if (lanes[at - 1] !== lane) lanes.splice(at, 0, lane);
    }
    return lanes;
  }

  /** The lanes {@link lanesOf} found. */
  private readonly lanes: number[] = [];

  /** The hull of the words of the group {@link group} is adding: first word and end word. */
  private low = 0;
  private high = 0;

  /**
   * The elements `lane + per·c`, c in [from, to), of access `k`'s view (all of [from, to) when `per` is 1), as runs
   * of words ({@link addRuns}, {@link addStrided}) with the bytes they hold, `write` or read at `site`, widening the
   * group's hull.
   */
  private elements(
    k: number,
    from: number,
    to: number,
    write: boolean,
    site: number,
    per: number,
    lane: number,
  ): void {
    if (this.plan !== null) this.plan.calls.push(k, from, to, write ? 1 : 0, site, per, lane);
    const v = this.views[k] as SpanView;
    const bpe = v.bpe;
    if (per > 1) {
      const q = (per * bpe) / 8; // words from one element of the lane to the next
      const b = v.off + lane * bpe; // element `lane`'s byte; element lane + per·c is q·c words further
      const w = Math.floor(b / 8) + q * from;
      const end = w + q * (to - from - 1) + 1; // after the word of the last element
      const mask = bytes(b % 8, (b % 8) + bpe);
      this.hull(w, end);
      if (q === 1) this.addRuns(v, k, w, end, write, site, mask);
      else this.addStrided(v, k, w, end, q, write, site, mask);
      return;
    }
    const b0 = v.off + from * bpe;
    const b1 = v.off + to * bpe;
    let w = Math.floor(b0 / 8);
    const last = Math.floor((b1 - 1) / 8); // the word of the last byte
    this.hull(w, last + 1);
    if (b0 % 8 !== 0 || b1 < 8 * w + 8) {
      // a first word of which the elements hold some bytes only
      this.addRuns(v, k, w, w + 1, write, site, bytes(b0 - 8 * w, Math.min(8, b1 - 8 * w)));
      w++;
    }
    const whole = b1 % 8 === 0 ? last + 1 : last; // the end of the whole words
    if (w < whole) this.addRuns(v, k, w, whole, write, site, Access.MASK);
    if (w <= last && whole === last) this.addRuns(v, k, last, last + 1, write, site, bytes(0, b1 - 8 * last));
  }

  /** Widens the hull of the group {@link group} is adding by the words [from, to). */
  private hull(from: number, to: number): void {
    if (from < this.low) this.low = from;
    if (to > this.high) this.high = to;
  }

  /**
   * The elements the accesses of kind `write` (0 read, 1 write) of the group of access `k` in lane `lane` (first
   * index ≡ lane mod `per`, see {@link group}) reach first, as triples (first, end, site index) in {@link reads} or
   * {@link writes}, elements `lane + per·c` named by `c`: the accesses taken by the order they first reach an
   * element, the largest first index first for stride ±1 going up, the smallest going down (insertion sort, stable:
   * the earlier in the body first on a tie), in the body's order for stride 0, each with the elements in bounds no
   * earlier one reached.
   */
  private reached(
    list: readonly unknown[],
    k: number,
    count: number,
    write: number,
    per: number,
    lane: number,
  ): number[] {
    const v = this.views[k] as SpanView;
    const g = list[FIELDS * k + 1];
    const stride = Math.sign(list[FIELDS * k + 3] as number);
    const at = (x: number) => ((list[FIELDS * x + 2] as number) - lane) / per; // c of the access's first element
    const order = this.order;
    order.length = 0;
    for (let x = k; x < this.views.length; x++) {
      const kind = list[FIELDS * x + 4];
      if (list[FIELDS * x + 1] !== g || kind === (write ? 0 : 1)) continue;
      const f = at(x);
      if (!Number.isInteger(f)) continue; // another lane's
      let i = order.length;
      if (stride !== 0) while (i > 0 && (stride === -1 ? at(order[i - 1]) > f : at(order[i - 1]) < f)) i--;
      order.splice(i, 0, x);
    }
    const out = write ? this.writes : this.reads;
    out.length = 0;
    const end = Math.floor((v.len - 1 - lane) / per) + 1; // the elements in bounds: c in [0, end)
    let reached = stride === -1 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    for (const x of order) {
      const first = at(x);
      let from: number;
      let to: number; // elements [from, to) no earlier access reached
      if (stride === -1) {
        from = Math.max(first - count + 1, reached);
        to = first + 1;
        reached = Math.max(reached, first + 1);
      } else if (stride === 0) {
        from = first;
        to = first + 1;
        for (let i = 0; i < out.length && from < to; i += 3) if (out[i] === first) to = from;
      } else {
        from = first;
        to = Math.min(first + count, reached);
        reached = Math.min(reached, first);
      }
      if (from < to && (from < 0 || to > end) && this.plan !== null) this.plan.clamped = true;
      from = Math.max(from, 0);
      to = Math.min(to, end);
      if (from < to) out.push(from, to, list[FIELDS * x + 5] as number);
    }
    return out;
  }

  /**
   * Adds the words [from, to) of view `v` (access `k`'s), the bytes `mask` of each, that the same-epoch filter does
   * not cover, as runs; the
   * filter is read only inside the hull of the words it covers in this epoch (`touched`), the words outside are
   * not covered, and inside it the blocks of another epoch are skipped whole (lufact's update: the row swap's two
   * words set the hull over the column it then loops over).
   */
  private addRuns(
    v: SpanView,
    k: number,
    from: number,
    to: number,
    write: boolean,
    site: number,
    mask: number,
  ): void {
    const epoch = this.c.epoch();
    const flags = write ? Access.WRITE : 0;
    const touched = v.touched;
    if (!write && touched[3] === epoch) {
      // the longest run of reads recorded in this epoch: covered, not scanned
      if (from >= touched[4] && from < touched[5]) from = touched[5];
      if (to > touched[4] && to <= touched[5]) to = touched[4];
      if (from >= to) return;
    }
    const lo = hullStart(touched, epoch, from, to); // the words [lo, hi) are scanned
    const hi = lo === to ? to : Math.min(to, touched[2]);
    let start = from < lo ? from : -1;
    const runs = this.nRuns;
    for (let x = lo; x < hi; x++) {
      const next = filterNextBlock(v, x, hi, epoch); // the words [x, next) are not covered
      if (next > x) {
        if (start < 0) start = x;
        x = next - 1;
        continue;
      }
      const e = filterBits(v, x, epoch);
      const covered = coversBits(e, write, mask);
      if (!covered) {
        if (start < 0) start = x;
      } else if (start >= 0) {
        this.addRun(start, x - start, flags, site, k, mask, 1);
        start = -1;
      }
    }
    if (start < 0 && hi < to) start = hi;
    if (start >= 0) this.addRun(start, to - start, flags, site, k, mask, 1);
    // reads of whole words all covered already (montecarlo's estimate of the path it has just written by per-access
    // checks): the next range check of them in the epoch skips them without a scan, as it skips the reads recorded
    else if (!write && mask === Access.MASK && this.nRuns === runs) keepReads(touched, epoch, from, to);
  }

  /**
   * {@link addRuns} of the words `from + step·i` before word `to` (step 2 or more: a lane's words, {@link
   * group}): each word that the same-epoch filter does not cover, read inside the hull of the words it covers in this
   * epoch only, and that is not in the longest run of reads recorded in the epoch (for a read), is added, as runs of
   * every `step`-th word.
   */
  private addStrided(
    v: SpanView,
    k: number,
    from: number,
    to: number,
    step: number,
    write: boolean,
    site: number,
    mask: number,
  ): void {
    const epoch = this.c.epoch();
    const flags = write ? Access.WRITE : 0;
    const touched = v.touched;
    if (!write) {
      lanesCovered(touched, epoch, from, to, step);
      from = lane[0];
      to = lane[1];
    }
    const lo = touched[0] === epoch ? touched[1] : to; // the hull: the words [lo, hi) may be covered
    const hi = touched[0] === epoch ? touched[2] : to;
    const readsFrom = !write && touched[3] === epoch ? touched[4] : to; // the longest run of reads: covered
    const readsTo = !write && touched[3] === epoch ? touched[5] : to;
    const kind = write ? 1 : 0;
    let start = -1;
    let n = 0;
    const dense = step < FILTER_BLOCK; // a lane of a word or none per block (a column) skips nothing: word by word
    for (let x = from; x < to; ) {
      let covered = x >= readsFrom && x < readsTo;
      let words = 1; // the words from x on decided alike
      if (!covered) {
        // the words before `next` are not covered: below the hull, after it, in a block with no entry for this kind
        const inHull = x >= lo && x < hi;
        const next = !dense
          ? x
          : !inHull
            ? x < lo
              ? lo
              : to
            : Math.min(filterBlockVoid(v, x, epoch, kind), hi);
        if (next > x)
          words = ((Math.min(next, x < readsFrom ? readsFrom : to) - x + step - 1) / step) | 0; // ceil, int
        else if (inHull) covered = filterCovers(v, x, epoch, mask, kind);
      }
      if (!covered) {
        if (start < 0) {
          start = x;
          n = 0;
        }
        n += words;
      } else if (start >= 0) {
        this.addRun(start, n, flags, site, k, mask, step);
        start = -1;
      }
      x += step * words;
    }
    if (start >= 0) this.addRun(start, n, flags, site, k, mask, step);
  }

  /**
   * Adds the run of `words` words from word `from` of access `k`'s view, every `step`-th one, the bytes `mask` of
   * each, with `flags` and `site`.
   */
  private addRun(
    from: number,
    words: number,
    flags: number,
    site: number,
    k: number,
    mask: number,
    step: number,
  ): void {
    if ((this.nRuns + 1) * RUN > this.runs.length) {
      const more = new Int32Array(2 * this.runs.length);
      more.set(this.runs);
      this.runs = more;
    }
    const r = this.nRuns++ * RUN;
    this.runs[r] = from;
    this.runs[r + 1] = words;
    this.runs[r + 2] = flags;
    this.runs[r + 3] = site;
    this.runs[r + 4] = k;
    this.runs[r + 5] = mask;
    this.runs[r + 6] = step;
  }
}
