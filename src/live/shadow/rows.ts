/**
 * Many locksets evaluated together over one stretch of the live synchronization event list (PLDI'07 §5.4,
 * partially-eager evaluation; `./evaluate.ts`): each lockset element (a thread, object or data key, `./lockset.ts`) has
 * a row saying which of the locksets hold it — a bit per lockset (`./batch.ts`) or a threshold per chain of nested
 * locksets (`./chains.ts`). The rules are distributive and change only the elements a cell names (`./rule-shape.ts`),
 * so a cell's effect on all the locksets is its effect on those singletons, the rows combined by union:
 * row′(e′) = ⋃ { row(e) : e named, e′ ∈ f({e}) }; a commit makes each named row the union of the named rows. This
 * class applies the cells; a subclass gives the rows' form and their union.
 *
 * The rows are slots of one Int32Array ({@link data}, `width` words each), an element's found by its offset: a
 * collection that evaluates the Infos of 170,000 words has a row per word, and a typed array each made the garbage
 * collector lead the collecting thread's profile (bench/programs/claim-results.mjs).
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

/** Rows allocated at first (the scratch row included); {@link RowBatch.data} doubles as they fill. */
const INITIAL_ROWS = 64;

/**
 * The index slot of key `e` in a table of `mask + 1` slots: a hash of its two 32-bit halves (keys are integers exact
 * in a double, below 2^53: `./lockset.ts`).
 */
function slotOf(e: number, mask: number): number {
  const h = Math.imul((e >>> 0) ^ Math.imul(Math.floor(e / 2 ** 32), 0x85ebca6b), 0x9e3779b1);
  return (h ^ (h >>> 16)) & mask;
}

export abstract class RowBatch {
  /**
   * The rows, `width` Int32 words each: row i at offset i × `width`; row 0 is scratch ({@link applyCommit}'s
   * union). Replaced as it grows ({@link row}): read it again after a call that may make a row.
   */
  protected data: Int32Array;
  /** The element of each row (row 0: none), in the order the rows were made. Replaced as it grows. */
  protected keys: Float64Array;
  /** Rows made (row 0 not counted): rows 1 … count. */
  protected count = 0;
  /**
   * Open addressing index of the rows by element (row + 1 per slot, 0 = empty), at most half full: a collection makes a
   * row for each of up to hundreds of thousands of words, whose keys are not small integers, which a `Map` boxes at
   * each lookup.
   */
  private index = new Int32Array(2 * INITIAL_ROWS);
  /** Scratch of {@link applyCommit}: the offsets of the rows of the elements a commit names (-1: none yet). */
  private readonly named: number[] = [];

  /** @param width Int32 words of a row. */
  constructor(protected readonly width: number) {
    this.data = new Int32Array(width * INITIAL_ROWS);
    this.keys = new Float64Array(INITIAL_ROWS);
  }

  /**
   * Words of each row the cells' loops read and write (the others are empty): all of them unless a subclass knows
   * better.
   */
  protected get used(): number {
    return this.width;
  }

  /** Makes the row at offset `r` empty: no lockset holds the element. */
  protected abstract clear(r: number): void;

  /** Row `into` ← `into` ∪ row `r` (offsets), over the {@link used} words. */
  protected abstract unite(into: number, r: number): void;

  /**
   * Rows `a` of u and `b` of y (offsets) after a cell whose rule has transfer pattern `p` (`./rule-shape.ts`): each
   * the union of the rows of the elements whose singleton's image holds it.
   */
  protected abstract transfer(a: number, b: number, p: number): void;

  /** The offset of element `e`'s row, or -1 if it has none (no lockset holds it). */
  protected find(e: number): number {
    const index = this.index;
    const mask = index.length - 1;
    for (let i = slotOf(e, mask); ; i = (i + 1) & mask) {
      const r = index[i];
      if (r === 0) return -1;
      if (this.keys[r - 1] === e) return (r - 1) * this.width;
    }
  }

  /** The offset of element `e`'s row, made empty if it has none yet (then {@link data} may be replaced). */
  protected row(e: number): number {
    const found = this.find(e);
    return found >= 0 ? found : this.add(e);
  }

  /** Makes an empty row for element `e`, which has none (then {@link data} may be replaced). @returns its offset. */
  private add(e: number): number {
    const row = ++this.count;
    if (row === this.keys.length) this.grow();
    this.keys[row] = e;
    this.place(row);
    const r = row * this.width;
    this.clear(r);
    return r;
  }

  /** Puts `row` in {@link index}, in the first free slot from its key's. */
  private place(row: number): void {
    const index = this.index;
    const mask = index.length - 1;
    let i = slotOf(this.keys[row], mask);
    while (index[i] !== 0) i = (i + 1) & mask;
    index[i] = row + 1;
  }

  /** Doubles the rows' room and the index, whose rows are placed again. */
  private grow(): void {
    const rows = this.keys.length * 2;
    const data = new Int32Array(rows * this.width);
    const keys = new Float64Array(rows);
    // loops, not `set`: in a thread of the live runtime that is its patched TypedArray method
    for (let w = 0; w < this.data.length; w++) data[w] = this.data[w];
    for (let k = 0; k < this.keys.length; k++) keys[k] = this.keys[k];
    this.data = data;
    this.keys = keys;
    this.index = new Int32Array(2 * rows);
    for (let row = 1; row < this.count; row++) this.place(row);
  }

  /** Applies the rule of a cell (not a commit: {@link applyCommit}) of `kind`, thread u, target key y to every lockset. */
  apply(kind: number, u: number, y: number): void {
    if (u === y) {
      this.applyNamed([u], (e) => singletonImage(kind, u, y, e));
      return;
    }
    const p = transferPattern(kind);
    if (p === IDENTITY) return;
    const ru = this.find(u);
    const ry = this.find(y);
    if (ru < 0 && ry < 0) return; // no lockset holds either: f(∅) = ∅
    // a row the cell keeps while the other is empty is not rewritten, and no row is made for the empty one: an
    // acquire of an object no lockset holds (an atomic load of each of thousands of words) neither allocates nor writes
    if (ry < 0 && (p & (U_TO_U | U_TO_Y)) === U_TO_U) return;
    if (ru < 0 && (p & (Y_TO_Y | Y_TO_U)) === Y_TO_Y) return;
    const a = ru >= 0 ? ru : this.add(u);
    this.transfer(a, ry >= 0 ? ry : this.add(y), p);
  }

  /**
   * Applies rule 9, commit(u, R ∪ W) with R ∪ W = `set[from … to − 1]` (data variables), to every lockset.
   * The rule maps each singleton it names to all it names (`checkCommitJoins`), so each named row becomes the union
   * of the named rows: one pass over them (a commit names up to thousands of words; through the singletons' images
   * that was quadratic, and a collection spent most of its time there).
   */
  applyCommit(u: number, set: Int32Array, from: number, to: number): void {
    checkCommitJoins();
    const named = this.named;
    this.clear(0); // the union, in the scratch row
    // each named element's row looked up once (u first, then R ∪ W), kept in `named` for the copy
    let held = false;
    const n = to - from + 1;
    for (let k = 0; k < n; k++) {
      const r = this.find(k === 0 ? u : DATA + set[from + k - 1]);
      named[k] = r;
      if (r < 0) continue;
      held = true;
      this.unite(0, r);
    }
    if (!held) return; // no lockset holds a named element: f(∅) = ∅
    // loops, not `set`: in a thread of the live runtime that is its patched TypedArray method (a wrapper and a
    // shared-memory test per call, for every commit cell a collection evaluates)
    const used = this.used;
    for (let k = 0; k < n; k++) {
      const r = named[k] >= 0 ? named[k] : this.add(k === 0 ? u : DATA + set[from + k - 1]);
      const d = this.data;
      for (let w = 0; w < used; w++) d[r + w] = d[w];
    }
  }

  /** A cell's effect through the images of the singletons of the elements it names (`named`). */
  private applyNamed(named: number[], imageOf: (e: number) => Set<number>): void {
    const old = new Map<number, Int32Array>();
    for (const e of named) {
      const r = this.find(e);
      if (r >= 0) old.set(e, this.data.slice(r, r + this.width));
    }
    if (old.size === 0) return;
    for (const e of named) this.clear(this.row(e));
    for (const [e, saved] of old) {
      for (const e2 of imageOf(e)) {
        if (!named.includes(e2)) throw new Error('a rule added an element its cell does not name');
        const into = this.row(e2);
        const d = this.data;
        for (let w = 0; w < this.width; w++) d[w] = saved[w];
        this.unite(into, 0);
      }
    }
  }
}
