/**
 * Many locksets evaluated together over one stretch of the live synchronization event list (PLDI'07 §5.4,
 * partially-eager evaluation; `./evaluate.ts`): each lockset element (a thread, object or data key, `./lockset.ts`) has
 * a row saying which of the locksets hold it — a bit per lockset (`./batch.ts`) or a threshold per chain of nested
 * locksets (`./chains.ts`). The rules are distributive and change only the elements a cell names (`./rule-shape.ts`),
 * so a cell's effect on all the locksets is its effect on those singletons, the rows combined by union:
 * row′(e′) = ⋃ { row(e) : e named, e′ ∈ f({e}) }; a commit makes each named row the union of the named rows. This
 * class applies the cells; a subclass gives the rows' form and their union.
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

export abstract class RowBatch {
  /** Element key → its row (`width` Int32). */
  protected readonly rows = new Map<number, Int32Array>();
  /** Scratch row of {@link applyCommit}. */
  private readonly union: Int32Array;
  /** Scratch of {@link applyCommit}: the rows of the elements a commit names (undefined: none yet). */
  private readonly named: (Int32Array | undefined)[] = [];

  /** @param width Int32 words of a row. */
  constructor(protected readonly width: number) {
    this.union = new Int32Array(width);
  }

  /**
   * Words of each row the cells' loops read and write (the others are empty): all of them unless a subclass knows
   * better.
   */
  protected get used(): number {
    return this.width;
  }

  /** Makes row `r` empty: no lockset holds the element. */
  protected abstract clear(r: Int32Array): void;

  /** `into` ← `into` ∪ `r`, over the {@link used} words. */
  protected abstract unite(into: Int32Array, r: Int32Array): void;

  /**
   * Rows `a` of u and `b` of y after a cell whose rule has transfer pattern `p` (`./rule-shape.ts`): each the union of
   * the rows of the elements whose singleton's image holds it.
   */
  protected abstract transfer(a: Int32Array, b: Int32Array, p: number): void;

  protected row(e: number): Int32Array {
    let r = this.rows.get(e);
    if (r === undefined) {
      r = new Int32Array(this.width);
      this.clear(r);
      this.rows.set(e, r);
    }
    return r;
  }

  /** Applies the rule of a cell (not a commit: {@link applyCommit}) of `kind`, thread u, target key y to every lockset. */
  apply(kind: number, u: number, y: number): void {
    if (u === y) {
      this.applyNamed([u], (e) => singletonImage(kind, u, y, e));
      return;
    }
    const p = transferPattern(kind);
    if (p === IDENTITY) return;
    const ru = this.rows.get(u);
    const ry = this.rows.get(y);
    if (ru === undefined && ry === undefined) return; // no lockset holds either: f(∅) = ∅
    // a row the cell keeps while the other is empty is not rewritten, and no row is made for the empty one: an
    // acquire of an object no lockset holds (an atomic load of each of thousands of words) neither allocates nor writes
    if (ry === undefined && (p & (U_TO_U | U_TO_Y)) === U_TO_U) return;
    if (ru === undefined && (p & (Y_TO_Y | Y_TO_U)) === Y_TO_Y) return;
    this.transfer(ru ?? this.row(u), ry ?? this.row(y), p);
  }

  /**
   * Applies rule 9, commit(u, R ∪ W) with R ∪ W = `set[from … to − 1]` (data variables), to every lockset.
   * The rule maps each singleton it names to all it names (`checkCommitJoins`), so each named row becomes the union
   * of the named rows: one pass over them (a commit names up to thousands of words; through the singletons' images
   * that was quadratic, and a collection spent most of its time there).
   */
  applyCommit(u: number, set: Int32Array, from: number, to: number): void {
    checkCommitJoins();
    const union = this.union;
    const named = this.named;
    this.clear(union);
    // each named element's row looked up once (u first, then R ∪ W), kept in `named` for the copy
    let held = false;
    const n = to - from + 1;
    for (let k = 0; k < n; k++) {
      const r = this.rows.get(k === 0 ? u : DATA + set[from + k - 1]);
      named[k] = r;
      if (r === undefined) continue;
      held = true;
      this.unite(union, r);
    }
    if (!held) return; // no lockset holds a named element: f(∅) = ∅
    // loops, not `set`: in a thread of the live runtime that is its patched TypedArray method (a wrapper and a
    // shared-memory test per call, for every commit cell a collection evaluates)
    const used = this.used;
    for (let k = 0; k < n; k++) {
      const r = named[k] ?? this.row(k === 0 ? u : DATA + set[from + k - 1]);
      for (let w = 0; w < used; w++) r[w] = union[w];
    }
  }

  /** A cell's effect through the images of the singletons of the elements it names (`named`). */
  private applyNamed(named: number[], imageOf: (e: number) => Set<number>): void {
    const old = new Map<number, Int32Array>();
    for (const e of named) {
      const r = this.rows.get(e);
      if (r !== undefined) old.set(e, r.slice());
    }
    if (old.size === 0) return;
    for (const e of named) this.clear(this.row(e));
    for (const [e, r] of old) {
      for (const e2 of imageOf(e)) {
        if (!named.includes(e2)) throw new Error('a rule added an element its cell does not name');
        this.unite(this.row(e2), r);
      }
    }
  }
}
