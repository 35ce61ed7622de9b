import { grow, growFilled } from '../../model/interner.js';
import type { DetectorContext } from '../detector.js';
import { VectorClockDetector } from './base.js';
import { ClockTable } from './clocks.js';

const NONE = -1;
const SHARED = -2;

/**
 * FastTrack (Flanagan & Freund, PLDI'09, Figure 2 / §3): the last write of x as an epoch W_x = c@u; the reads
 * as an epoch R_x, or a vector clock once concurrent reads exist (read-shared). Checks: a read against W_x
 * (write-read); a write against W_x (write-write) and R_x (read-write). Same-epoch accesses are skipped
 * ([READ SAME EPOCH], [WRITE SAME EPOCH]); a write to a read-shared x resets R_x ([WRITE SHARED]).
 * Synchronization: see VectorClockDetector. One race is reported per access (the write conflict first).
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
  private readonly RS = new ClockTable();
  private readonly RSev = new ClockTable();
  private readonly RSlocx = new ClockTable();
  private n = {
    reads: 0,
    writes: 0,
    sameEpoch: 0,
    readShared: 0,
    races: 0,
  };

  constructor(ctx: DetectorContext) {
    super(ctx);
    this.tables.push(this.RS, this.RSev, this.RSlocx);
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
  }

  protected access(t: number, x: number, loc: number, ev: number, write: boolean, xact: boolean): void {
    this.ensureVar(x);
    const C = this.C.data;
    const cw = this.C.width;
    const ct = C[t * cw + t];
    const locx = loc * 2 + (xact ? 1 : 0);
    const rt = this.rThread[x];
    if (!write) {
      this.n.reads++;
      if (rt === t && this.rClock[x] === ct) {
        this.n.sameEpoch++;
        return;
      }
      const row = this.rClock[x];
      if (rt === SHARED && this.RS.data[row * this.RS.width + t] === ct) {
        this.n.sameEpoch++;
        return;
      }
      const wt = this.wThread[x];
      if (wt >= 0 && this.wClock[x] > C[t * cw + wt]) {
        this.race(
          x,
          t,
          ev,
          loc,
          false,
          xact,
          wt,
          this.wEv[x],
          this.wLocX[x],
          true,
          this.wClock[x],
          'write-read',
        );
      }
      if (rt === SHARED) {
        this.setShared(row, t, ct, ev, locx);
      } else if (rt === NONE || rt === t || this.rClock[x] <= C[t * cw + rt]) {
        this.rThread[x] = t;
        this.rClock[x] = ct;
        this.rEv[x] = ev;
        this.rLocX[x] = locx;
      } else {
        this.n.readShared++;
        const r = this.RS.allocate();
        this.RSev.allocate();
        this.RSlocx.allocate();
        this.setShared(r, rt, this.rClock[x], this.rEv[x], this.rLocX[x]);
        this.setShared(r, t, ct, ev, locx);
        this.rThread[x] = SHARED;
        this.rClock[x] = r;
      }
      return;
    }
    this.n.writes++;
    const wt = this.wThread[x];
    if (wt === t && this.wClock[x] === ct) {
      this.n.sameEpoch++;
      return;
    }
    if (wt >= 0 && this.wClock[x] > C[t * cw + wt]) {
      this.race(
        x,
        t,
        ev,
        loc,
        true,
        xact,
        wt,
        this.wEv[x],
        this.wLocX[x],
        true,
        this.wClock[x],
        'write-write',
      );
    } else if (rt === SHARED) {
      const row = this.rClock[x];
      const u = this.RS.firstNotLeq(row, this.C, t);
      if (u >= 0) {
        const i = row * this.RS.width + u;
        this.race(
          x,
          t,
          ev,
          loc,
          true,
          xact,
          u,
          this.RSev.data[i],
          this.RSlocx.data[i],
          false,
          this.RS.data[i],
          'read-write',
        );
      }
    } else if (rt >= 0 && this.rClock[x] > C[t * cw + rt]) {
      this.race(
        x,
        t,
        ev,
        loc,
        true,
        xact,
        rt,
        this.rEv[x],
        this.rLocX[x],
        false,
        this.rClock[x],
        'read-write',
      );
    }
    if (rt === SHARED) this.freeShared(x);
    this.wThread[x] = t;
    this.wClock[x] = ct;
    this.wEv[x] = ev;
    this.wLocX[x] = locx;
  }

  private setShared(row: number, t: number, c: number, ev: number, locx: number): void {
    const i = row * this.RS.width + t;
    this.RS.data[i] = c;
    this.RSev.data[i] = ev;
    this.RSlocx.data[i] = locx;
  }

  private freeShared(x: number): void {
    const row = this.rClock[x];
    this.RS.free(row);
    this.RSev.free(row);
    this.RSlocx.free(row);
    this.rThread[x] = NONE;
    this.rClock[x] = 0;
  }

  private race(
    x: number,
    t: number,
    ev: number,
    loc: number,
    write: boolean,
    xact: boolean,
    u: number,
    uEv: number,
    uLocX: number,
    uWrite: boolean,
    uClock: number,
    what: string,
  ): void {
    this.n.races++;
    this.report(
      x,
      { index: ev, thread: t, write, xact, loc },
      { index: uEv, thread: u, write: uWrite, xact: (uLocX & 1) === 1, loc: uLocX >> 1 },
      `${what} race: previous access at epoch ${this.epoch(uClock, u)}, but C_${this.ctx.symbols.threads.name(t)}[${this.ctx.symbols.threads.name(u)}] = ${this.C.data[t * this.C.width + u]}`,
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
