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

  protected clear(r: number): void {
    // a loop, not `fill`: in a thread of the live runtime that is its patched TypedArray method
    const n = this.chains;
    const d = this.data;
    for (let c = 0; c < n; c++) d[r + c] = -1;
  }

  protected unite(into: number, r: number): void {
    const n = this.chains;
    const d = this.data;
    for (let c = 0; c < n; c++) if (d[r + c] > d[into + c]) d[into + c] = d[r + c];
  }

  protected transfer(a: number, b: number, p: number): void {
    const n = this.chains;
    const d = this.data;
    for (let c = 0; c < n; c++) {
      const au = d[a + c];
      const by = d[b + c];
      const uu = p & U_TO_U ? au : -1;
      const yu = p & Y_TO_U ? by : -1;
      const uy = p & U_TO_Y ? au : -1;
      const yy = p & Y_TO_Y ? by : -1;
      d[a + c] = Math.max(uu, yu);
      d[b + c] = Math.max(uy, yy);
    }
  }

  /**
   * Lane `lane` of chain `c` starts here with the lockset `keys`. Call in order of lane, before the cell at its
   * start; every earlier lane of the chain must hold `keys` here (the caller's to keep: an owner's later start).
   */
  enter(c: number, lane: number, keys: Iterable<number>): void {
    for (const k of keys) {
      const r = this.row(k);
      this.data[r + c] = lane; // the last lane so far: every earlier one holds k
    }
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
      const r = this.row(keys[j]) + c;
      if (first + m - 1 > this.data[r]) this.data[r] = first + m - 1;
    }
  }

  /**
   * The locksets of chain `c`'s `lanes` lanes, whose owner is `owner`. With `live`, a lane holding every thread of it
   * keeps only its threads, as `LaneBatch.prune` of `./batch.ts` does, and for the same reasons; those lanes are the
   * first ones (lane i holds them all iff i ≤ the least of their thresholds).
   */
  results(c: number, lanes: number, owner: number, live: readonly number[] | undefined): ChainResult {
    const d = this.data;
    let saturated = -1; // the last lane holding every live thread
    if (live !== undefined && live.length > 0) {
      saturated = lanes - 1;
      for (const t of live) {
        const r = this.find(t);
        const thr = r < 0 ? -1 : d[r + c];
        if (thr < saturated) saturated = thr;
      }
    }
    // the kept elements by threshold, descending, by counting (thresholds are lanes): per threshold the owner first,
    // then in the order of the rows
    const count = new Int32Array(lanes);
    const threads: [number, number][] = [];
    for (let i = 1; i <= this.count; i++) {
      const e = this.keys[i];
      const thr = d[i * this.width + c];
      if (thr > saturated) count[thr]++;
      if (saturated >= 0 && thr >= 0 && e < DATA) threads.push([e, thr]);
    }
    const lengths = new Int32Array(lanes);
    const next = new Int32Array(lanes); // where the next key of each threshold goes
    let n = 0; // lane saturated + 1 holds them all
    for (let lane = lanes - 1; lane > saturated; lane--) {
      next[lane] = n;
      n += count[lane];
      lengths[lane] = n;
    }
    const keys: number[] = new Array(n);
    const ownerRow = this.find(owner);
    const ownerThr = ownerRow < 0 ? -1 : d[ownerRow + c];
    if (ownerThr > saturated) keys[next[ownerThr]++] = owner;
    for (let i = 1; i <= this.count; i++) {
      const e = this.keys[i];
      const thr = d[i * this.width + c];
      if (thr > saturated && e !== owner) keys[next[thr]++] = e;
    }
    threads.sort((a, b) => b[1] - a[1] || (a[0] === owner ? -1 : b[0] === owner ? 1 : 0));
    const pruned: number[][] = new Array(saturated + 1);
    n = threads.length;
    for (let lane = 0; lane <= saturated; lane++) {
      const m = n;
      while (n > 0 && threads[n - 1][1] < lane) n--;
      pruned[lane] = lane > 0 && m === n ? pruned[lane - 1] : threads.slice(0, n).map(([e]) => e);
      lengths[lane] = -1;
    }
    return { keys, lengths, pruned };
  }
}
