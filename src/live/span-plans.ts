/**
 * **Loop plans** of the range checks (`./spans.ts`, issue 24 §1): what a range check derives from a loop's shape
 * alone — its accesses' groups and lanes, the order in which they first reach the elements, and so the intervals of
 * elements each access is checked and recorded for (`Spans.group`, `Spans.reached`) — kept for the loop's next
 * call, when it has the same shape shifted: a red-black sweep's row after row, a matrix product's column after
 * column. The plan then holds each interval as the elements `lane + per·c`, `c` in `[from, to)` of an access
 * (`Spans.elements`), which the next call takes shifted by `d / per` elements, `d` the shift of its indices.
 *
 * A plan is taken again only where that gives exactly what deriving it would: the same site function and number of
 * iterations, views of the same element size and length ({@link viewShape}), the same groups, strides, kinds and sites, each access's first index the same
 * distance from the first access's, a shift `d` that is a multiple of each group's `per` (so its lanes are the same
 * residues), and every shifted interval inside the view's elements (a plan in which deriving clamped an interval to
 * them is not kept: {@link LoopPlan.clamped}). Which elements the same-epoch filter covers is not part of a plan:
 * each call scans them (`Spans.addRuns`, `Spans.addStrided`). {@link PLANS} plans are kept (the two colours of a
 * red-black sweep's rows alternate the parity of their first index: two shapes with `per` 2).
 */
import type { SiteFunction } from '../hooks/contract.js';

/** Numbers of a span's access list per access (`Hooks.span`): view, group, first, stride, kind, site. */
export const FIELDS = 6;
/** Numbers of a plan's interval ({@link LoopPlan.calls}): access, from, to, write (1) or read (0), site, per, lane. */
export const CALL = 7;
/** Plans kept by a range checker ({@link LoopPlans}). */
const PLANS = 2;

/**
 * What a plan depends on of an access's view (`SpanView`, or undefined: not over shared memory), as a number: its
 * length `len` and bytes per element `bpe` (its lanes, the bounds of its elements); -1 when not shared. Not the view
 * itself, nor its buffer or offset, which each call takes from its own views (`Spans.elements`): a matrix's rows as
 * views of one length share their plans.
 */
export const viewShape = (v: { len: number; bpe: number } | undefined): number =>
  v === undefined ? -1 : v.len * 16 + v.bpe;

/** One loop's plan (see the file header). */
export class LoopPlan {
  m: SiteFunction | null = null;
  count = -1;
  /** The first access's first index when the plan was derived. */
  first = 0;
  /**
   * The access list's numbers, the first indices made relative to the first access's (its views: {@link shapes};
   * their key entries are not compared).
   */
  readonly key: unknown[] = [];
  /** Per access, the shape of its view ({@link viewShape}). */
  readonly shapes: number[] = [];
  /** The intervals, {@link CALL} numbers each, in the order derived. */
  readonly calls: number[] = [];
  /** Per group: its first access, and the end of its intervals in {@link calls}. */
  readonly groups: number[] = [];
  /** Deriving clamped an interval to the view's elements: not taken again. */
  clamped = false;

  /**
   * Does the loop `m` of `count` iterations with the access list `list` (`n` accesses), whose views have the shapes
   * `shapes` ({@link viewShape}), have this plan's shape (see the file header; the shift's multiples and bounds are
   * tested as it is taken, `Spans.replay`)? A view shared since is another shape.
   */
  matches(
    m: SiteFunction,
    count: number,
    list: readonly unknown[],
    n: number,
    shapes: readonly number[],
  ): boolean {
    if (m !== this.m || count !== this.count || this.key.length !== FIELDS * n) return false;
    const key = this.key;
    const first = list[2] as number;
    for (let k = 0, x = 0; k < n; k++, x += FIELDS)
      if (
        shapes[k] !== this.shapes[k] ||
        list[x + 1] !== key[x + 1] ||
        (list[x + 2] as number) - first !== key[x + 2] ||
        list[x + 3] !== key[x + 3] ||
        list[x + 4] !== key[x + 4] ||
        list[x + 5] !== key[x + 5]
      )
        return false;
    return true;
  }

  /**
   * Starts deriving the plan of loop `m` of `count` iterations with access list `list` (`n` accesses), the shapes of
   * its views `shapes` ({@link viewShape}).
   */
  start(
    m: SiteFunction,
    count: number,
    list: readonly unknown[],
    n: number,
    shapes: readonly number[],
  ): void {
    this.m = m;
    this.shapes.length = n;
    for (let k = 0; k < n; k++) this.shapes[k] = shapes[k];
    this.count = count;
    const first = list[2] as number;
    this.first = first;
    const key = this.key;
    key.length = FIELDS * n;
    for (let x = 0; x < FIELDS * n; x++) key[x] = list[x];
    for (let x = 0; x < FIELDS * n; x += FIELDS) {
      key[x] = null; // the view: not kept (its shape is)
      key[x + 2] = (list[x + 2] as number) - first;
    }
    this.calls.length = 0;
    this.groups.length = 0;
    this.clamped = false;
  }

  /** Forgets the plan (deriving it stopped: the loop went to its per-access checks). */
  drop(): void {
    this.m = null;
  }
}

/** The {@link PLANS} plans of a range checker, most recently used first ({@link at}). */
export class LoopPlans {
  private readonly plans = Array.from({ length: PLANS }, () => new LoopPlan());
  /** The index of the plan used last. */
  private last = 0;
  readonly length = PLANS;

  /** The `i`-th plan, 0 the one used last. */
  at(i: number): LoopPlan {
    return this.plans[(this.last + i) % PLANS];
  }

  /** Marks the `i`-th plan ({@link at}) as the one used last. */
  used(i: number): void {
    this.last = (this.last + i) % PLANS;
  }

  /**
   * Does the loop `m` of `count` iterations with access list `list` (`n` accesses), which no plan fits, have the
   * relative first indices of the last loop no plan fitted, the same site function and iterations (a loop shifted,
   * whose plan may be taken next time)? Only then is a plan derived into {@link fresh}: a loop whose accesses move
   * apart from call to call (a matrix product's `a[i * n + k]` and column `b[k * n + j]`, `j` its caller's) would pay
   * for recording a plan no loop takes.
   */
  repeats(m: SiteFunction, count: number, list: readonly unknown[], n: number): boolean {
    const last = this.lastFirsts;
    let same = m === this.lastM && count === this.lastCount && last.length === n;
    const first = list[2] as number;
    last.length = n;
    for (let k = 0, x = 2; k < n; k++, x += FIELDS) {
      const d = (list[x] as number) - first;
      if (last[k] !== d) {
        same = false;
        last[k] = d;
      }
    }
    this.lastM = m;
    this.lastCount = count;
    return same;
  }
  private lastM: SiteFunction | null = null;
  private lastCount = -1;
  private readonly lastFirsts: number[] = [];

  /** The plan to derive a new one into: the one used least recently, then marked as used last. */
  fresh(): LoopPlan {
    this.last = (this.last + PLANS - 1) % PLANS;
    return this.plans[this.last];
  }
}
