import type { ClockStore } from './rules.js';

/**
 * Vector clocks stored flat: a table of rows, each `width` Int32 entries (one per thread id), in one
 * Int32Array (`data[row * width + t]`). Widening re-lays the table out. Mattern 1988; the notation
 * (C_t, L_m, ⊔, ⊑) follows Flanagan & Freund, FastTrack, PLDI'09 §2.
 *
 * Rows can be allocated from a free list (`allocate` / `free`) for shadow state that exists only for some
 * ids (FastTrack's read-shared vector clocks, DJIT+'s per-variable clocks).
 */
export class ClockTable {
  width: number;
  rows: number;
  data: Int32Array;
  private freeRows: number[] = [];
  private nextRow = 0;

  constructor(width = 8, rows = 16) {
    this.width = width;
    this.rows = rows;
    this.data = new Int32Array(width * rows);
  }

  /** Makes rows 0..n-1 addressable. */
  ensureRows(n: number): void {
    if (n <= this.rows) return;
    let rows = this.rows * 2;
    while (rows < n) rows *= 2;
    const d = new Int32Array(rows * this.width);
    d.set(this.data);
    this.data = d;
    this.rows = rows;
  }

  /** Makes thread ids 0..n-1 addressable (re-lays out the rows). */
  ensureWidth(n: number): void {
    if (n <= this.width) return;
    let w = this.width * 2;
    while (w < n) w *= 2;
    const d = new Int32Array(this.rows * w);
    for (let r = 0; r < this.rows; r++)
      d.set(this.data.subarray(r * this.width, (r + 1) * this.width), r * w);
    this.data = d;
    this.width = w;
  }

  /** A zeroed row from the free list (or a new one). */
  allocate(): number {
    const r = this.freeRows.pop();
    if (r !== undefined) return r;
    this.ensureRows(this.nextRow + 1);
    return this.nextRow++;
  }

  free(row: number): void {
    this.clear(row);
    this.freeRows.push(row);
  }

  clear(row: number): void {
    this.data.fill(0, row * this.width, (row + 1) * this.width);
  }

  /** row := row ⊔ src[srcRow] (same width required: callers widen all their tables together). */
  join(row: number, src: ClockTable, srcRow: number): void {
    const w = this.width;
    const d = this.data;
    const s = src.data;
    const a = row * w;
    const b = srcRow * w;
    for (let i = 0; i < w; i++) if (s[b + i] > d[a + i]) d[a + i] = s[b + i];
  }

  /** row := src[srcRow] (same width required). */
  copy(row: number, src: ClockTable, srcRow: number): void {
    const w = this.width;
    this.data.set(src.data.subarray(srcRow * w, (srcRow + 1) * w), row * w);
  }

  /**
   * The first thread u with row[u] > other[otherRow][u] (i.e. row ⋢ other), or -1 when row ⊑ other. With `tag`
   * ≠ 0, the entries u with `tags[row][u] === tag` are left out (accesses of one atomic location, which never
   * race with each other) and, with `others`, u's other read is compared in their place (see {@link OtherReads}).
   */
  firstNotLeq(
    row: number,
    other: ClockTable,
    otherRow: number,
    tags?: ClockTable,
    tag = 0,
    others?: OtherReads,
  ): number {
    const w = this.width;
    const d = this.data;
    const s = other.data;
    const a = row * w;
    const b = otherRow * w;
    if (tag === 0 || tags === undefined) {
      for (let i = 0; i < w; i++) if (d[a + i] > s[b + i]) return i;
      return -1;
    }
    const g = tags.data;
    const o = others === undefined ? -1 : others.rowOf(row);
    if (o < 0) {
      for (let i = 0; i < w; i++) if (d[a + i] > s[b + i] && g[a + i] !== tag) return i;
      return -1;
    }
    const c = (others as OtherReads).clock.data;
    const e = o * w;
    for (let i = 0; i < w; i++) {
      if (g[a + i] !== tag ? d[a + i] > s[b + i] : c[e + i] > s[b + i]) return i;
    }
    return -1;
  }
}

/**
 * For a table of last reads (one entry per thread, tagged: 0 plain, else 1 + an atomic location): per entry, the
 * thread's last read with another tag than the entry's — the one a write with the entry's tag must still be
 * checked against, since that write does not race with the entry's read but may with the earlier one (ECMA-262:
 * an atomic load orders nothing before a later store). Reads of the thread before that one are ordered before one
 * of the two and conflict with no write that both miss, so the pair is exact. Its rows (clock, event index,
 * `loc * 2 + xact`, tag) exist only for the read rows that need one (a variable read both plainly and atomically,
 * or atomically at two locations, by one thread): {@link ClockTable.firstNotLeq} consults them.
 */
export class OtherReads {
  readonly clock = new ClockTable();
  readonly ev = new ClockTable();
  readonly locx = new ClockTable();
  readonly tag = new ClockTable();
  /** For each row of the read table, its row here, or -1. */
  private row: Int32Array = new Int32Array(16).fill(-1);

  /** The tables, for widening with the detector's others. */
  get tables(): ClockTable[] {
    return [this.clock, this.ev, this.locx, this.tag];
  }

  /** The row here of read row `r`, or -1. */
  rowOf(r: number): number {
    return r < this.row.length ? this.row[r] : -1;
  }

  /**
   * Before entry (r, t) of a read table — `reads`, its [clock, ev, locx, tag] tables — is overwritten by t's read
   * with `tag`: an entry of another tag becomes t's other read.
   */
  keep(reads: readonly ClockTable[], r: number, t: number, tag: number): void {
    const [clock, ev, locx, tags] = reads;
    const i = r * clock.width + t;
    if (tag !== 0 && clock.data[i] !== 0 && tags.data[i] !== tag)
      this.save(r, t, clock.data[i], ev.data[i], locx.data[i], tags.data[i]);
  }

  /**
   * The read of thread u that a write with `tag` races with, when {@link ClockTable.firstNotLeq} returned u for read
   * row `r` of `reads` (its [clock, ev, locx, tag] tables): u's entry, or u's other read when the entry has the
   * write's tag. @returns those tables and the index of the read in them.
   */
  racing(reads: readonly ClockTable[], r: number, u: number, tag: number): [readonly ClockTable[], number] {
    const w = reads[0].width;
    const i = r * w + u;
    return tag !== 0 && reads[3].data[i] === tag ? [this.tables, this.rowOf(r) * w + u] : [reads, i];
  }

  /** Records (clock, ev, locx, tag) as thread t's other read for read row `r`. */
  private save(r: number, t: number, clock: number, ev: number, locx: number, tag: number): void {
    if (r >= this.row.length) {
      const g = new Int32Array(Math.max(r + 1, this.row.length * 2)).fill(-1);
      g.set(this.row);
      this.row = g;
    }
    let o = this.row[r];
    if (o < 0) {
      o = this.clock.allocate();
      this.ev.allocate();
      this.locx.allocate();
      this.tag.allocate();
      this.row[r] = o;
    }
    const i = o * this.clock.width + t;
    this.clock.data[i] = clock;
    this.ev.data[i] = ev;
    this.locx.data[i] = locx;
    this.tag.data[i] = tag;
  }

  /** Read row `r` is cleared or freed: so is its row here. */
  free(r: number): void {
    const o = this.rowOf(r);
    if (o < 0) return;
    for (const tb of this.tables) tb.free(o);
    this.row[r] = -1;
  }
}

/** The tables of {@link SyncClocks}, as the low two bits of its keys. */
export const SyncTable = {
  /** Thread clocks C_t. */
  Thread: 0,
  /** Lock clocks L_l. */
  Lock: 1,
  /** Volatile and atomic-location clocks V_v. */
  Volatile: 2,
  /** Per-variable transaction clocks TX_y (§5.3). */
  Transaction: 3,
} as const;

/** The {@link SyncClocks} key of row `row` of table `table`. */
export const syncKey = (table: number, row: number): number => row * 4 + table;

/**
 * The offline {@link ClockStore} of the synchronization rules (`./rules.ts`): four tables of the same width (thread,
 * lock, volatile, transaction clocks); a key is {@link syncKey}(table, row). Rows must exist (callers ensure them).
 */
export class SyncClocks implements ClockStore<number> {
  constructor(private readonly tables: readonly [ClockTable, ClockTable, ClockTable, ClockTable]) {}

  join(dst: number, src: number): void {
    this.tables[dst & 3].join(dst >> 2, this.tables[src & 3], src >> 2);
  }

  copy(dst: number, src: number): void {
    this.tables[dst & 3].copy(dst >> 2, this.tables[src & 3], src >> 2);
  }

  tick(c: number, t: number): void {
    const tb = this.tables[c & 3];
    tb.data[(c >> 2) * tb.width + t]++;
  }
}
