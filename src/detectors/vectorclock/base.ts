import { grow, growFilled } from '../../model/interner.js';
import type { AccessRef, Detector, DetectorContext } from '../detector.js';
import { ClockTable, SyncClocks, SyncTable, syncKey } from './clocks.js';
import * as rules from './rules.js';

const { Thread, Lock, Volatile, Transaction } = SyncTable;

/**
 * The synchronization half shared by the vector-clock detectors: the extended happens-before of Goldilocks
 * §3 (PLDI'07) computed with vector clocks by the rules of `./rules.ts` (shared with the live runtime) over the
 * tables C, L, V, TX ({@link SyncClocks}); FastTrack, PLDI'09 §2-3 notation:
 * - acq(m): C_t := C_t ⊔ L_m;           rel(m): L_m := L_m ⊔ C_t, C_t[t]++
 * - vr(v):  C_t := C_t ⊔ V_v;           vw(v):  V_v := V_v ⊔ C_t, C_t[t]++  (every earlier write → later read)
 * - ar(v) = vr(v);                      aw(v):  V_v := C_t, C_t[t]++  (ECMA-262: only the write read from)
 * - fork(u): C_u := C_u ⊔ C_t, C_t[t]++; join(u): C_t := C_t ⊔ C_u, C_u[u]++
 * - commit(R, W): for y ∈ R ∪ W: C_t := C_t ⊔ TX_y; the accesses of R (reads) and W (writes) are checked
 *   with that clock and `xact`; then TX_y := TX_y ⊔ C_t for y ∈ R ∪ W, C_t[t]++. This is the edge
 *   commit(R,W) → later commit(R',W') when (R∪W)∩(R'∪W') ≠ ∅; it also orders any two transactional
 *   accesses of one variable, so "two transactional accesses never race" holds without a special case.
 * - alloc(o): the shadow state of o's variables is reset (Figure 5, rule 8).
 * Joining (not copying) at rel(m) equals the usual copy on feasible traces, where the releases of m are
 * ordered, and matches the lockset rule 5 exactly. Thread clocks start at C_t[t] = 1.
 */
export abstract class VectorClockDetector implements Detector {
  abstract readonly name: string;
  protected readonly C = new ClockTable();
  protected readonly L = new ClockTable();
  protected readonly V = new ClockTable();
  protected readonly TX = new ClockTable();
  /** C, L, V, TX as the rules' clock store. */
  private readonly clocks = new SyncClocks([this.C, this.L, this.V, this.TX]);
  private txRow: Int32Array = new Int32Array(64).fill(-1);
  /** Every table indexed by thread; widened together. */
  protected readonly tables: ClockTable[] = [this.C, this.L, this.V, this.TX];
  protected width = 8;
  private started: Uint8Array = new Uint8Array(8);

  constructor(protected readonly ctx: DetectorContext) {}

  /**
   * Access check and shadow-state update of one variable (the detector's algorithm). `tag` is 0 for a plain
   * access, or 1 + the atomic location of the data access of an atomic operation (ard/awd): two accesses with
   * the same tag ≠ 0 are never checked against each other (ECMA-262), and an atomic write replaces every earlier
   * access of x (the last-write semantics of the lockset detectors; see docs/FORMATS.md).
   */
  protected abstract access(
    t: number,
    x: number,
    loc: number,
    ev: number,
    write: boolean,
    xact: boolean,
    tag: number,
  ): void;
  /** Reset of a variable's shadow state (alloc). */
  protected abstract resetVariable(x: number): void;
  abstract stats(): Record<string, number>;

  /** Ensures thread t has a clock (C_t[t] ≥ 1) and every table is wide enough. */
  protected thread(t: number): void {
    if (t >= this.width) {
      let w = this.width * 2;
      while (w <= t) w *= 2;
      for (const tb of this.tables) tb.ensureWidth(w);
      this.width = w;
      this.started = grow(this.started, w);
    }
    if (this.started[t] === 0) {
      this.started[t] = 1;
      this.C.ensureRows(t + 1);
      const i = t * this.C.width + t;
      if (this.C.data[i] === 0) this.C.data[i] = 1;
    }
  }

  /** The epoch c@t of thread t now. */
  protected clockOf(t: number): number {
    return this.C.data[t * this.C.width + t];
  }

  read(t: number, x: number, loc: number, ev: number): void {
    this.thread(t);
    this.access(t, x, loc, ev, false, false, 0);
  }

  write(t: number, x: number, loc: number, ev: number): void {
    this.thread(t);
    this.access(t, x, loc, ev, true, false, 0);
  }

  atomicAccess(t: number, x: number, v: number, write: boolean, loc: number, ev: number): void {
    this.thread(t);
    this.access(t, x, loc, ev, write, false, v + 1);
  }

  acquire(t: number, l: number): void {
    this.thread(t);
    this.L.ensureRows(l + 1);
    rules.acquire(this.clocks, syncKey(Thread, t), syncKey(Lock, l));
  }

  release(t: number, l: number): void {
    this.thread(t);
    this.L.ensureRows(l + 1);
    rules.release(this.clocks, syncKey(Thread, t), t, syncKey(Lock, l));
  }

  volatileRead(t: number, v: number): void {
    this.thread(t);
    this.V.ensureRows(v + 1);
    rules.volatileRead(this.clocks, syncKey(Thread, t), syncKey(Volatile, v));
  }

  volatileWrite(t: number, v: number): void {
    this.thread(t);
    this.V.ensureRows(v + 1);
    rules.volatileWrite(this.clocks, syncKey(Thread, t), t, syncKey(Volatile, v));
  }

  /** ECMA-262 atomic write: V_v := C_t (the location carries this write's clock only), C_t[t]++. */
  atomicWrite(t: number, v: number): void {
    this.thread(t);
    this.V.ensureRows(v + 1);
    rules.atomicWrite(this.clocks, syncKey(Thread, t), t, syncKey(Volatile, v));
  }

  fork(t: number, u: number): void {
    this.thread(t);
    this.thread(u);
    rules.fork(this.clocks, syncKey(Thread, t), t, syncKey(Thread, u));
  }

  join(t: number, u: number): void {
    this.thread(t);
    this.thread(u);
    rules.join(this.clocks, syncKey(Thread, t), syncKey(Thread, u), u);
  }

  commit(t: number, pool: Int32Array, off: number, loc: number, ev: number): void {
    this.thread(t);
    const nr = pool[off];
    const n = nr + pool[off + 1];
    const first = off + 2;
    const ct = syncKey(Thread, t);
    for (let j = first; j < first + n; j++) {
      const r = this.txRow[pool[j]];
      if (r !== undefined && r >= 0) rules.commitEnter(this.clocks, ct, syncKey(Transaction, r));
    }
    for (let j = first; j < first + n; j++) this.access(t, pool[j], loc, ev, j >= first + nr, true, 0);
    for (let j = first; j < first + n; j++) {
      const y = pool[j];
      if (y >= this.txRow.length) {
        this.txRow = growFilled(this.txRow, Math.max(y + 1, this.txRow.length * 2), -1);
      }
      if (this.txRow[y] < 0) this.txRow[y] = this.TX.allocate();
      rules.commitLeave(this.clocks, ct, syncKey(Transaction, this.txRow[y]));
    }
    rules.commitEnd(this.clocks, ct, t);
  }

  alloc(_t: number, o: number): void {
    const s = this.ctx.symbols;
    for (let x = s.firstVariableOf(o); x >= 0; x = s.variableNextInObject[x]) this.resetVariable(x);
  }

  /** Reports a race of the current access against a previous one. */
  protected report(x: number, current: AccessRef, previous: AccessRef, detail: string): void {
    this.ctx.sink.race({ variable: x, current, previous, detail });
  }

  /** "c@T" for messages. */
  protected epoch(c: number, u: number): string {
    return `${c}@${this.ctx.symbols.threads.name(u)}`;
  }
}
