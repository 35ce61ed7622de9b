import { grow, growFilled } from '../../model/interner.js';
import type { AccessRef, DetectorContext } from '../detector.js';
import { VectorClockDetector } from './base.js';
import { ClockTable, OtherReads } from './clocks.js';

const NONE = -1;
const SHARED = -2;

/**
 * FastTrack (Flanagan & Freund, PLDI'09, Figure 2 / §3): the last write of x as an epoch W_x = c@u; the reads
 * as an epoch R_x, or a vector clock once concurrent reads exist (read-shared). Checks: a read against W_x
 * (write-read); a write against W_x (write-write) and R_x (read-write). Same-epoch accesses are skipped
 * ([READ SAME EPOCH], [WRITE SAME EPOCH]); a write to a read-shared x resets R_x ([WRITE SHARED]).
 * Synchronization: see VectorClockDetector. One race is reported per access (the write conflict first).
 * Atomic operations' data accesses (ard/awd) carry their location's tag (wTag, rTag, RStag): an access is not
 * checked against one with its tag; a read epoch is replaced by a later ordered read, of its own thread or another,
 * only when no later write can race with the old read but not with the new one (the new read is plain, or has the
 * old one's tag), else x becomes read-shared, where a thread's read of another tag than its entry's keeps that
 * entry as its other read ({@link OtherReads}); an atomic write replaces the reads too (R_x := ⊥), like the
 * lockset detectors' last write.
 * Shadow state per variable in flat typed arrays; read-shared clocks are rows of a ClockTable.
 */
export class FastTrackDetector extends VectorClockDetector {
  readonly name: string = 'fasttrack';
  private wClock: Int32Array = new Int32Array(1024);
  private wThread: Int32Array = new Int32Array(1024).fill(NONE);
  private wEv: Float64Array = new Float64Array(1024);
  /** loc * 2 + xact. */
  private wLocX: Int32Array = new Int32Array(1024);
  private rClock: Int32Array = new Int32Array(1024);
  /** Reader thread of the read epoch, NONE, or SHARED (then `rClock` holds the row of RS). */
  private rThread: Int32Array = new Int32Array(1024).fill(NONE);
  private rEv: Float64Array = new Float64Array(1024);
  private rLocX: Int32Array = new Int32Array(1024);
  /** Tags of the write and read epochs: 0 plain, else 1 + the atomic location (see VectorClockDetector). */
  private wTag: Int32Array = new Int32Array(1024);
  private rTag: Int32Array = new Int32Array(1024);
  private readonly RStag = new ClockTable();
  private readonly RS = new ClockTable();
  private readonly RSev = new ClockTable();
  private readonly RSlocx = new ClockTable();
  /** The read-shared tables, as OtherReads takes them: clock, event, loc*2+xact, tag. */
  private readonly reads = [this.RS, this.RSev, this.RSlocx, this.RStag];
  /** Per read-shared row: each thread's read of another tag than its entry's. */
  private readonly others = new OtherReads();
  private n = {
    reads: 0,
    writes: 0,
    sameEpoch: 0,
    readShared: 0,
    races: 0,
  };

  constructor(ctx: DetectorContext) {
    super(ctx);
    this.tables.push(this.RS, this.RSev, this.RSlocx, this.RStag, ...this.others.tables);
  }

  private ensureVar(x: number): void {
    if (x < this.wClock.length) return;
    let cap = this.wClock.length * 2;
    while (cap <= x) cap *= 2;
    this.wClock = grow(this.wClock, cap);
    this.wThread = growFilled(this.wThread, cap, NONE);
    this.wEv = grow(this.wEv, cap);
    this.wLocX = grow(this.wLocX, cap);
    this.rClock = grow(this.rClock, cap);
    this.rThread = growFilled(this.rThread, cap, NONE);
    this.rEv = grow(this.rEv, cap);
    this.rLocX = grow(this.rLocX, cap);
    this.wTag = grow(this.wTag, cap);
    this.rTag = grow(this.rTag, cap);
  }

  protected access(
    t: number,
    x: number,
    loc: number,
    ev: number,
    write: boolean,
    xact: boolean,
    tag: number,
  ): void {
    this.ensureVar(x);
    const C = this.C.data;
    const cw = this.C.width;
    const ct = C[t * cw + t];
    const locx = loc * 2 + (xact ? 1 : 0);
    const rt = this.rThread[x];
    if (!write) {
      this.n.reads++;
      if (rt === t && this.rClock[x] === ct && this.rTag[x] === tag) {
        this.n.sameEpoch++;
        return;
      }
      const row = this.rClock[x];
      const si = row * this.RS.width + t;
      if (rt === SHARED && this.RS.data[si] === ct && this.RStag.data[si] === tag) {
        this.n.sameEpoch++;
        return;
      }
      const wt = this.wThread[x];
      if (wt >= 0 && this.wClock[x] > C[t * cw + wt] && (tag === 0 || this.wTag[x] !== tag)) {
        const previous = this.previous(wt, this.wEv[x], this.wLocX[x], this.wTag[x], true);
        this.race(x, { index: ev, thread: t, write, xact, atomic: tag !== 0, loc }, previous, this.wClock[x]);
      }
      if (rt === SHARED) {
        this.readShared(row, t, ct, ev, locx, tag);
      } else if (
        rt === NONE ||
        ((rt === t || this.rClock[x] <= C[t * cw + rt]) && (tag === 0 || this.rTag[x] === tag))
      ) {
        this.rThread[x] = t;
        this.rClock[x] = ct;
        this.rEv[x] = ev;
        this.rLocX[x] = locx;
        this.rTag[x] = tag;
      } else {
        this.n.readShared++;
        const r = this.RS.allocate();
        this.RSev.allocate();
        this.RSlocx.allocate();
        this.RStag.allocate();
        this.setShared(r, rt, this.rClock[x], this.rEv[x], this.rLocX[x], this.rTag[x]);
        this.readShared(r, t, ct, ev, locx, tag);
        this.rThread[x] = SHARED;
        this.rClock[x] = r;
      }
      return;
    }
    this.n.writes++;
    const wt = this.wThread[x];
    // [WRITE SAME EPOCH], not for an atomic write: it replaces the reads since (R_x := ⊥), which the skip would keep
    if (tag === 0 && wt === t && this.wClock[x] === ct && this.wTag[x] === 0) {
      this.n.sameEpoch++;
      return;
    }
    if (wt >= 0 && this.wClock[x] > C[t * cw + wt] && (tag === 0 || this.wTag[x] !== tag)) {
      const previous = this.previous(wt, this.wEv[x], this.wLocX[x], this.wTag[x], true);
      this.race(x, { index: ev, thread: t, write, xact, atomic: tag !== 0, loc }, previous, this.wClock[x]);
    } else if (rt === SHARED) {
      const row = this.rClock[x];
      const u = this.RS.firstNotLeq(row, this.C, t, this.RStag, tag, this.others);
      if (u >= 0) {
        const [[clock, evs, locxs, tags], i] = this.others.racing(this.reads, row, u, tag);
        const previous = this.previous(u, evs.data[i], locxs.data[i], tags.data[i], false);
        this.race(x, { index: ev, thread: t, write, xact, atomic: tag !== 0, loc }, previous, clock.data[i]);
      }
    } else if (rt >= 0 && this.rClock[x] > C[t * cw + rt] && (tag === 0 || this.rTag[x] !== tag)) {
      const previous = this.previous(rt, this.rEv[x], this.rLocX[x], this.rTag[x], false);
      this.race(x, { index: ev, thread: t, write, xact, atomic: tag !== 0, loc }, previous, this.rClock[x]);
    }
    if (rt === SHARED) this.freeShared(x);
    else if (tag !== 0) this.rThread[x] = NONE;
    this.wThread[x] = t;
    this.wClock[x] = ct;
    this.wEv[x] = ev;
    this.wLocX[x] = locx;
    this.wTag[x] = tag;
  }

  /** A read by t in read-shared row `row`: t's entry of another tag becomes t's other read. */
  private readShared(row: number, t: number, c: number, ev: number, locx: number, tag: number): void {
    this.others.keep(this.reads, row, t, tag);
    this.setShared(row, t, c, ev, locx, tag);
  }

  private setShared(row: number, t: number, c: number, ev: number, locx: number, tag: number): void {
    const i = row * this.RS.width + t;
    this.RS.data[i] = c;
    this.RSev.data[i] = ev;
    this.RSlocx.data[i] = locx;
    this.RStag.data[i] = tag;
  }

  private freeShared(x: number): void {
    const row = this.rClock[x];
    this.RS.free(row);
    this.RSev.free(row);
    this.RSlocx.free(row);
    this.RStag.free(row);
    this.others.free(row);
    this.rThread[x] = NONE;
    this.rClock[x] = 0;
  }

  /** A recorded access as a report's previous access: thread u, event ev, `loc * 2 + xact`, tag, read or write. */
  private previous(u: number, ev: number, locx: number, tag: number, write: boolean): AccessRef {
    return { index: ev, thread: u, write, xact: (locx & 1) === 1, atomic: tag !== 0, loc: locx >> 1 };
  }

  /** Reports the race of `current` with `previous`, whose epoch is `clock`@previous.thread. */
  private race(x: number, current: AccessRef, previous: AccessRef, clock: number): void {
    this.n.races++;
    const t = current.thread;
    const u = previous.thread;
    const names = this.ctx.symbols.threads;
    const kind = `${previous.write ? 'write' : 'read'}-${current.write ? 'write' : 'read'}`;
    this.report(
      x,
      current,
      previous,
      `${kind} race: previous access at epoch ${this.epoch(clock, u)}, but C_${names.name(t)}[${names.name(u)}] = ${this.C.data[t * this.C.width + u]}`,
    );
  }

  protected resetVariable(x: number): void {
    if (x >= this.wClock.length) return;
    if (this.rThread[x] === SHARED) this.freeShared(x);
    this.rThread[x] = NONE;
    this.wThread[x] = NONE;
  }

  stats(): Record<string, number> {
    return { ...this.n };
  }
}
