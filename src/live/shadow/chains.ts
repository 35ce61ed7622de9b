/**
 * Partially-eager evaluation (PLDI'07 §5.4) of *chains* of nested locksets, in space linear in their elements
 * (`./evaluate.ts`).
 *
 * The starts of one owner t, in order of position, each begin as {t}. The rules are distributive and change only the
 * elements a cell names (`./rule-shape.ts`), hence monotone, and none removes a thread, so a lockset started earlier
 * holds t when a later one starts, and from there on holds all the later one holds: LS₀ ⊇ LS₁ ⊇ … at every cell. Such
 * a chain needs, per element e, only the last lane that holds it, its *threshold*: lane i holds e iff thr(e) ≥ i. A
 * cell maps thresholds as `./batch.ts` maps bits (`./rows.ts`), with max for union: thr′(e′) = max { thr(e) : e named,
 * e′ ∈ f({e}) }. At the end, each lane's lockset is a prefix of the chain's elements sorted by threshold, descending:
 * stored once, each lane a view of its prefix (`../memory/locksets.ts`); and the views of one record, entered
 * together at its position, are again a chain.
 *
 * The bit lanes of `./batch.ts` take elements × lanes / 32 words and records of Σ lockset sizes. Both are quadratic when
 * a worker stores to thousands of words while the main thread waits: each Info of a word holds every word stored after
 * it (bench/programs/claim-results.mjs). Chains take elements × chains words and at most elements keys per chain.
 */
import { DATA } from './lockset.js';
import { RowBatch } from './rows.js';
import { U_TO_U, U_TO_Y, Y_TO_U, Y_TO_Y } from './rule-shape.js';

/** The evaluated locksets of one chain's lanes ({@link ChainBatch.results}). */
export interface ChainResult {
  /** The elements of the chain's unpruned lanes by threshold, descending, the owner first. */
  keys: number[];
  /**
   * Per lane, the length of its lockset's prefix of {@link keys}; -1 for a pruned lane, whose lockset is in
   * {@link pruned}.
   */
  lengths: Int32Array;
  /**
   * The locksets of the pruned lanes (lanes 0 … n − 1: a prefix of the chain), each its threads; consecutive lanes
   * holding the same threads share one array.
   */
  pruned: number[][];
}

/** Chains evaluated together: one row of an element is `chains` Int32 thresholds, -1 where no lane holds it. */
export class ChainBatch extends RowBatch {
  /** @param chains the number of chains evaluated together (chains 0 … chains − 1). */
  constructor(readonly chains: number) {
    super(chains);
  }

  protected clear(r: Int32Array): void {
    // a loop, not `fill`: in a thread of the live runtime that is its patched TypedArray method
    const n = this.chains;
    for (let c = 0; c < n; c++) r[c] = -1;
  }

  protected unite(into: Int32Array, r: Int32Array): void {
    const n = this.chains;
    for (let c = 0; c < n; c++) if (r[c] > into[c]) into[c] = r[c];
  }

  protected transfer(a: Int32Array, b: Int32Array, p: number): void {
    const n = this.chains;
    for (let c = 0; c < n; c++) {
      const au = a[c];
      const by = b[c];
      const uu = p & U_TO_U ? au : -1;
      const yu = p & Y_TO_U ? by : -1;
      const uy = p & U_TO_Y ? au : -1;
      const yy = p & Y_TO_Y ? by : -1;
      a[c] = Math.max(uu, yu);
      b[c] = Math.max(uy, yy);
    }
  }

  /**
   * Lane `lane` of chain `c` starts here with the lockset `keys`. Call in order of lane, before the cell at its
   * start; every earlier lane of the chain must hold `keys` here (the caller's to keep: an owner's later start).
   */
  enter(c: number, lane: number, keys: Iterable<number>): void {
    for (const k of keys) this.row(k)[c] = lane; // the last lane so far: every earlier one holds k
  }

  /**
   * Lanes `first` … `first + lengths.length − 1` of chain `c` start here, lane first + i with the prefix
   * `keys[0 … lengths[i])`; `lengths` non-increasing, and every earlier lane holds `keys[0 … lengths[0])` here.
   * Linear in `lengths[0]` and the lanes (one prefix each would be their sum).
   */
  enterPrefixes(c: number, first: number, keys: readonly number[], lengths: readonly number[]): void {
    let m = lengths.length; // lanes holding key j: those with lengths[i] > j, the first m
    for (let j = 0; j < lengths[0]; j++) {
      while (m > 0 && lengths[m - 1] <= j) m--;
      const r = this.row(keys[j]);
      if (first + m - 1 > r[c]) r[c] = first + m - 1;
    }
  }

  /**
   * The locksets of chain `c`'s `lanes` lanes, whose owner is `owner`. With `live`, a lane holding every thread of it
   * keeps only its threads, as `LaneBatch.prune` of `./batch.ts` does, and for the same reasons; those lanes are the
   * first ones (lane i holds them all iff i ≤ the least of their thresholds).
   */
  results(c: number, lanes: number, owner: number, live: readonly number[] | undefined): ChainResult {
    let saturated = -1; // the last lane holding every live thread
    if (live !== undefined && live.length > 0) {
      saturated = lanes - 1;
      for (const t of live) {
        const thr = this.rows.get(t)?.[c] ?? -1;
        if (thr < saturated) saturated = thr;
      }
    }
    const kept: [number, number][] = [];
    const threads: [number, number][] = [];
    for (const [e, r] of this.rows) {
      const thr = r[c];
      if (thr > saturated) kept.push([e, thr]);
      if (saturated >= 0 && thr >= 0 && e < DATA) threads.push([e, thr]);
    }
    const order = (a: [number, number], b: [number, number]) =>
      b[1] - a[1] || (a[0] === owner ? -1 : b[0] === owner ? 1 : 0);
    kept.sort(order);
    threads.sort(order);
    const lengths = new Int32Array(lanes);
    let n = kept.length; // lane saturated + 1 holds them all
    for (let lane = saturated + 1; lane < lanes; lane++) {
      while (n > 0 && kept[n - 1][1] < lane) n--;
      lengths[lane] = n;
    }
    const pruned: number[][] = new Array(saturated + 1);
    n = threads.length;
    for (let lane = 0; lane <= saturated; lane++) {
      const m = n;
      while (n > 0 && threads[n - 1][1] < lane) n--;
      pruned[lane] = lane > 0 && m === n ? pruned[lane - 1] : threads.slice(0, n).map(([e]) => e);
      lengths[lane] = -1;
    }
    return { keys: kept.map(([e]) => e), lengths, pruned };
  }
}
