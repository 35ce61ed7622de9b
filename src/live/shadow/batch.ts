/**
 * Bit-parallel partially-eager evaluation (PLDI'07 §5.4): many locksets evaluated over one stretch of the live
 * synchronization event list in a single pass (`./evaluate.ts`). One walk per distinct start (an owner at a position, or
 * an explicit lockset) from that start to the cut made a collection quadratic when thousands of Infos start at
 * thousands of positions, as in one thread's pass over 20,000 hash buckets guarded by their own atomic locks
 * (sharedmap's `map()`: 193 s under the runtime, 40 ms plainly; docs/RESULTS.md).
 *
 * Each start is a *lane*; each lockset element (a thread, object or data key, `./lockset.ts`) has a row of bits, bit
 * i set while lane i's lockset holds the element; `./rows.ts` applies the cells, union being OR.
 */
import { DATA } from './lockset.js';
import { RowBatch } from './rows.js';
import { U_TO_U, U_TO_Y, Y_TO_U, Y_TO_Y } from './rule-shape.js';

/** Lanes evaluated together: one row of an element is `lanes / 32` Int32 words. */
export class LaneBatch extends RowBatch {
  /** @param lanes the number of locksets evaluated together (lanes 0 … lanes − 1). */
  constructor(readonly lanes: number) {
    super((lanes + 31) >>> 5);
  }

  /**
   * Words of each row that may hold a bit: those of the lanes entered so far. The lanes of a pass enter in order of
   * their start (`./evaluate.ts`), so a cell before the last ones' starts only touches the first words of each row: the
   * cells' loops stop here (half the words of a pass, on average, when the starts spread over it).
   */
  private entered = 0;

  protected override get used(): number {
    return this.entered;
  }

  protected clear(r: number): void {
    // the words past `entered` are 0 in every row: no lane there has entered
    const n = this.entered;
    const d = this.data;
    for (let w = 0; w < n; w++) d[r + w] = 0;
  }

  protected unite(into: number, r: number): void {
    const n = this.entered;
    const d = this.data;
    for (let w = 0; w < n; w++) d[into + w] |= d[r + w];
  }

  protected transfer(a: number, b: number, p: number): void {
    const n = this.entered;
    const d = this.data;
    for (let w = 0; w < n; w++) {
      const au = d[a + w];
      const by = d[b + w];
      d[a + w] = (p & U_TO_U ? au : 0) | (p & Y_TO_U ? by : 0);
      d[b + w] = (p & U_TO_Y ? au : 0) | (p & Y_TO_Y ? by : 0);
    }
  }

  /** Lane `lane` starts here with the lockset `keys` (call before applying the cell at its start position). */
  enter(lane: number, keys: Iterable<number>): void {
    const w = lane >>> 5;
    if (w >= this.entered) this.entered = w + 1;
    const bit = 1 << (lane & 31);
    for (const k of keys) {
      const r = this.row(k);
      this.data[r + w] |= bit;
    }
  }

  /**
   * Drops the object and data elements (keys ≥ {@link DATA}, `./lockset.ts`) of every lane whose lockset holds each
   * thread of `threads`, keeping its threads. Exact for the checks when `threads` holds every thread that can still
   * access memory, as `./eager.ts` gives it: an object or data element only ever adds a thread to the lockset (rules
   * 2, 4, 9 of Figure 5; no rule removes a thread), and each of those threads is in it already; a thread started
   * later is added by its fork cell (rule 6), its parent being in the lockset. A check only asks whether its thread is
   * in the lockset (PLDI'07 Theorem 1), so it decides the same; the stored lockset is then a few threads instead of
   * every lock and atomic location released since the start (thousands in sharedmap's test, docs/RESULTS.md), and
   * equal lanes share one record ({@link results}).
   */
  prune(threads: readonly number[]): void {
    if (threads.length === 0) return;
    const all = new Int32Array(this.width);
    for (let w = 0; w < this.width; w++) all[w] = -1;
    const d = this.data;
    for (const t of threads) {
      const r = this.find(t);
      if (r < 0) return; // no lane holds t
      for (let w = 0; w < this.width; w++) all[w] &= d[r + w];
    }
    for (let i = 1; i <= this.count; i++)
      if (this.keys[i] >= DATA) for (let w = 0, r = i * this.width; w < this.width; w++) d[r + w] &= ~all[w];
  }

  /**
   * Bit i set when lane i's column differs from lane i − 1's in some row (lane 0: always): the lanes
   * {@link results} materializes.
   */
  private differs(): Int32Array {
    const differs = new Int32Array(this.width);
    differs[0] = 1;
    const d = this.data;
    for (let r = this.width; r <= this.count * this.width; r += this.width) {
      let carry = 0; // the previous word's top bit: lane 32w − 1
      for (let w = 0; w < this.width; w++) {
        const x = d[r + w];
        differs[w] |= x ^ ((x << 1) | carry);
        carry = x >>> 31;
      }
    }
    return differs;
  }

  /**
   * @returns each lane's lockset as an array of distinct keys, indexed by lane; a lane holding the same elements as the
   * lane before it gets the same array (one object): lanes in order of their start are often equal, and materializing
   * each would cost the sum of their sizes. Arrays, not Sets: the distinct locksets of one pass can hold millions of
   * keys in all (lanes after each of thousands of lock releases: one lockset per lock, each holding the locks released
   * after it), and a Set's add cost most of a collection there.
   */
  results(): number[][] {
    const differs = this.differs();
    const out: number[][] = new Array(this.lanes);
    for (let lane = 0; lane < this.lanes; lane++)
      out[lane] = differs[lane >>> 5] & (1 << (lane & 31)) ? [] : out[lane - 1];
    // each row is one element: pushed at most once into each lane's array
    const d = this.data;
    for (let i = 1; i <= this.count; i++)
      for (let w = 0, r = i * this.width; w < this.width; w++)
        for (let bits = d[r + w] & differs[w]; bits !== 0; bits &= bits - 1)
          out[(w << 5) + 31 - Math.clz32(bits & -bits)].push(this.keys[i]);
    return out;
  }
}
