/**
 * Bit-parallel partially-eager evaluation (PLDI'07 §5.4): many locksets evaluated over one stretch of the live
 * synchronization event list in a single pass (`./evaluate.ts`). One walk per distinct start (an owner at a position, or
 * an explicit lockset) from that start to the cut made a collection quadratic when thousands of Infos start at
 * thousands of positions, as in one thread's pass over 20,000 hash buckets guarded by their own atomic locks
 * (sharedmap's `map()`: 193 s under the runtime, 40 ms plainly; docs/RESULTS.md).
 *
 * Each start is a *lane*; each lockset element (a thread, object or data key, `./lockset.ts`) has a row of bits, bit
 * i set while lane i's lockset holds the element. The rules are distributive and change only the elements a cell names
 * (`./rule-shape.ts`), so a cell's effect on all lanes is its effect on those singletons:
 * row′(e′) = ⋃ { row(e) : e named, e′ ∈ f({e}) }; a commit makes each named row the union of the named rows.
 */
import { DATA } from './lockset.js';
import {
  checkCommitJoins,
  IDENTITY,
  singletonImage,
  transferPattern,
  U_TO_U,
  U_TO_Y,
  Y_TO_U,
  Y_TO_Y,
} from './rule-shape.js';

/** Lanes evaluated together: one row of an element is `lanes / 32` Int32 words. */
export class LaneBatch {
  private readonly words: number;
  /** Element key → its bits, one per lane. */
  private readonly rows = new Map<number, Int32Array>();

  /** @param lanes the number of locksets evaluated together (lanes 0 … lanes − 1). */
  constructor(readonly lanes: number) {
    this.words = (lanes + 31) >>> 5;
    this.union = new Int32Array(this.words);
  }

  private row(e: number): Int32Array {
    let r = this.rows.get(e);
    if (r === undefined) {
      r = new Int32Array(this.words);
      this.rows.set(e, r);
    }
    return r;
  }

  /**
   * Words of each row that may hold a bit: those of the lanes entered so far. The lanes of a pass enter in order of
   * their start (`./evaluate.ts`), so a cell before the last ones' starts only touches the first words of each row: the
   * cells' loops stop here (half the words of a pass, on average, when the starts spread over it).
   */
  private used = 0;

  /** Lane `lane` starts here with the lockset `keys` (call before applying the cell at its start position). */
  enter(lane: number, keys: Iterable<number>): void {
    const w = lane >>> 5;
    if (w >= this.used) this.used = w + 1;
    const bit = 1 << (lane & 31);
    for (const k of keys) this.row(k)[w] |= bit;
  }

  /** Applies the rule of a cell (not a commit: {@link applyCommit}) of `kind`, thread u, target key y to every lane. */
  apply(kind: number, u: number, y: number): void {
    if (u === y) {
      this.applyNamed([u], (e) => singletonImage(kind, u, y, e));
      return;
    }
    const p = transferPattern(kind);
    if (p === IDENTITY) return;
    const ru = this.rows.get(u);
    const ry = this.rows.get(y);
    if (ru === undefined && ry === undefined) return; // no lane holds either: f(∅) = ∅
    // a row the cell keeps while the other is empty is not rewritten, and no row is made for the empty one: an
    // acquire of an object no lane holds (an atomic load of each of thousands of words) neither allocates nor writes
    if (ry === undefined && (p & (U_TO_U | U_TO_Y)) === U_TO_U) return;
    if (ru === undefined && (p & (Y_TO_Y | Y_TO_U)) === Y_TO_Y) return;
    const a = ru ?? this.row(u);
    const b = ry ?? this.row(y);
    for (let w = 0; w < this.used; w++) {
      const au = a[w];
      const by = b[w];
      a[w] = (p & U_TO_U ? au : 0) | (p & Y_TO_U ? by : 0);
      b[w] = (p & U_TO_Y ? au : 0) | (p & Y_TO_Y ? by : 0);
    }
  }

  /**
   * Applies rule 9, commit(u, R ∪ W) with R ∪ W = `set[from … to − 1]` (data variables), to every lane.
   * The rule maps each singleton it names to all it names (`checkCommitJoins`), so each named row becomes the union
   * of the named rows: one pass over them (a commit names up to thousands of words; through the singletons' images
   * that was quadratic, and a collection spent most of its time there).
   */
  applyCommit(u: number, set: Int32Array, from: number, to: number): void {
    checkCommitJoins();
    const union = this.union;
    const named = this.named;
    // loops, not `fill` and `set`: in a thread of the live runtime those are its patched TypedArray methods (a
    // wrapper and a shared-memory test per call, for every commit cell a collection evaluates)
    for (let w = 0; w < this.used; w++) union[w] = 0;
    // each named element's row looked up once (u first, then R ∪ W), kept in `named` for the copy
    let held = false;
    const n = to - from + 1;
    for (let k = 0; k < n; k++) {
      const r = this.rows.get(k === 0 ? u : DATA + set[from + k - 1]);
      named[k] = r;
      if (r === undefined) continue;
      held = true;
      for (let w = 0; w < this.used; w++) union[w] |= r[w];
    }
    if (!held) return; // no lane holds a named element: f(∅) = ∅
    for (let k = 0; k < n; k++) {
      const r = named[k] ?? this.row(k === 0 ? u : DATA + set[from + k - 1]);
      for (let w = 0; w < this.used; w++) r[w] = union[w];
    }
  }

  /** Scratch row of {@link applyCommit}. */
  private readonly union: Int32Array;
  /** Scratch of {@link applyCommit}: the rows of the elements a commit names (undefined: none yet). */
  private readonly named: (Int32Array | undefined)[] = [];
  /** A cell's effect through the images of the singletons of the elements it names (`named`). */
  private applyNamed(named: number[], imageOf: (e: number) => Set<number>): void {
    const old = new Map<number, Int32Array>();
    for (const e of named) {
      const r = this.rows.get(e);
      if (r !== undefined) old.set(e, r.slice());
    }
    if (old.size === 0) return;
    for (const e of named) this.row(e).fill(0);
    for (const [e, bits] of old) {
      for (const e2 of imageOf(e)) {
        if (!named.includes(e2)) throw new Error('a rule added an element its cell does not name');
        const r = this.row(e2);
        for (let w = 0; w < this.words; w++) r[w] |= bits[w];
      }
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
    const all = new Int32Array(this.words);
    for (let w = 0; w < this.words; w++) all[w] = -1;
    for (const t of threads) {
      const r = this.rows.get(t);
      if (r === undefined) return; // no lane holds t
      for (let w = 0; w < this.words; w++) all[w] &= r[w];
    }
    for (const [e, r] of this.rows) if (e >= DATA) for (let w = 0; w < this.words; w++) r[w] &= ~all[w];
  }

  /**
   * Bit i set when lane i's column differs from lane i − 1's in some row (lane 0: always): the lanes
   * {@link results} materializes.
   */
  private differs(): Int32Array {
    const differs = new Int32Array(this.words);
    differs[0] = 1;
    for (const r of this.rows.values()) {
      let carry = 0; // the previous word's top bit: lane 32w − 1
      for (let w = 0; w < this.words; w++) {
        const x = r[w];
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
    for (const [e, r] of this.rows)
      for (let w = 0; w < this.words; w++)
        for (let bits = r[w] & differs[w]; bits !== 0; bits &= bits - 1)
          out[(w << 5) + 31 - Math.clz32(bits & -bits)].push(e);
    return out;
  }
}
