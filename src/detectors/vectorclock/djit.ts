import { growFilled } from '../../model/interner.js';
import type { DetectorContext } from '../detector.js';
import { VectorClockDetector } from './base.js';
import { ClockTable, OtherReads } from './clocks.js';

/**
 * DJIT+ (Pozniansky & Schuster, PPoPP'03; as summarized in FastTrack, PLDI'09 §2): full vector clocks of the
 * last read and last write of x by each thread, R_x and W_x. A read by t races unless W_x ⊑ C_t; a write
 * unless W_x ⊑ C_t and R_x ⊑ C_t. Accesses in the same epoch as the thread's last one are skipped.
 * Atomic operations' data accesses (ard/awd) carry their location's tag per entry (Rtag, Wtag): entries with the
 * current access's tag are not checked, and an atomic write replaces x's earlier accesses (R_x := ⊥, W_x := ⊥
 * but its own entry), as the lockset detectors' last write does: otherwise an older write it replaced without a
 * check (same location) would still be compared with later accesses. An atomic read of another tag than the
 * thread's last read keeps that read as the thread's other read ({@link OtherReads}).
 * Synchronization: see VectorClockDetector. One race is reported per access (the write conflict first,
 * naming the lowest thread id whose access is not ordered before it).
 */
export class DjitDetector extends VectorClockDetector {
  readonly name: string = 'djit';
  private readonly R = new ClockTable();
  private readonly W = new ClockTable();
  /** Per (row, thread): event index and loc*2+xact of the access the clock entry records. */
  private readonly Rev = new ClockTable();
  private readonly Rlocx = new ClockTable();
  private readonly Wev = new ClockTable();
  private readonly Wlocx = new ClockTable();
  /** Per (row, thread): the tag of the access the entry records (0 plain, else 1 + its atomic location). */
  private readonly Rtag = new ClockTable();
  private readonly Wtag = new ClockTable();
  private readonly others = new OtherReads();
  /** Row of x in R/W (allocated on first access), or -1. */
  private row: Int32Array = new Int32Array(1024).fill(-1);
  /** The last reads' tables, as OtherReads takes them: clock, event, loc*2+xact, tag. */
  private readonly reads = [this.R, this.Rev, this.Rlocx, this.Rtag];
  /** The tables with a row per variable (allocated and freed together). */
  private readonly rowTables: ClockTable[];
  private n = { reads: 0, writes: 0, sameEpoch: 0, races: 0 };

  constructor(ctx: DetectorContext) {
    super(ctx);
    this.rowTables = [this.R, this.W, this.Rev, this.Rlocx, this.Wev, this.Wlocx, this.Rtag, this.Wtag];
    this.tables.push(...this.rowTables, ...this.others.tables);
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
    if (x >= this.row.length) this.row = growFilled(this.row, Math.max(x + 1, this.row.length * 2), -1);
    let r = this.row[x];
    if (r < 0) {
      r = this.R.allocate();
      for (const tb of this.rowTables) if (tb !== this.R) tb.allocate();
      this.row[x] = r;
    }
    const ct = this.clockOf(t);
    const i = r * this.R.width + t;
    const mine = write ? this.W : this.R;
    const mineTag = write ? this.Wtag : this.Rtag;
    if (write) this.n.writes++;
    else this.n.reads++;
    // not for an atomic write: it replaces the reads since the last write, which a same-epoch skip would keep
    if (mine.data[i] === ct && mineTag.data[i] === tag && !(write && tag !== 0)) {
      this.n.sameEpoch++;
      return;
    }
    let u = this.W.firstNotLeq(r, this.C, t, this.Wtag, tag);
    let prev = this.W;
    if (u < 0 && write) {
      u = this.R.firstNotLeq(r, this.C, t, this.Rtag, tag, this.others);
      prev = this.R;
    }
    if (u >= 0) {
      this.n.races++;
      const [[clock, evs, locxs, tags], j] =
        prev === this.W
          ? [[this.W, this.Wev, this.Wlocx, this.Wtag], r * this.R.width + u]
          : this.others.racing(this.reads, r, u, tag);
      const locx = locxs.data[j];
      const names = this.ctx.symbols.threads;
      this.report(
        x,
        { index: ev, thread: t, write, xact, atomic: tag !== 0, loc },
        {
          index: evs.data[j],
          thread: u,
          write: prev === this.W,
          xact: (locx & 1) === 1,
          atomic: tags.data[j] !== 0,
          loc: locx >> 1,
        },
        `${prev === this.W ? 'write' : 'read'}-${write ? 'write' : 'read'} race: ${prev === this.W ? 'W' : 'R'}_x[${names.name(u)}] = ${clock.data[j]} > C_${names.name(t)}[${names.name(u)}] = ${this.C.data[t * this.C.width + u]}`,
      );
    }
    if (write && tag !== 0) {
      this.R.clear(r);
      this.Rtag.clear(r);
      this.W.clear(r);
      this.others.free(r);
    } else if (!write) this.others.keep(this.reads, r, t, tag);
    mine.data[i] = ct;
    mineTag.data[i] = tag;
    (write ? this.Wev : this.Rev).data[i] = ev;
    (write ? this.Wlocx : this.Rlocx).data[i] = loc * 2 + (xact ? 1 : 0);
  }

  protected resetVariable(x: number): void {
    if (x >= this.row.length || this.row[x] < 0) return;
    const r = this.row[x];
    for (const tb of this.rowTables) tb.free(r);
    this.others.free(r);
    this.row[x] = -1;
  }

  stats(): Record<string, number> {
    return { ...this.n };
  }
}
