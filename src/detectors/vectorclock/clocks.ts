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
   * race with each other).
   */
  firstNotLeq(row: number, other: ClockTable, otherRow: number, tags?: ClockTable, tag = 0): number {
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
    for (let i = 0; i < w; i++) if (d[a + i] > s[b + i] && g[a + i] !== tag) return i;
    return -1;
  }
}
