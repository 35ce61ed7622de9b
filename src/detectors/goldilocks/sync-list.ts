/**
 * The synchronization event list of Goldilocks (PLDI'07 §5, Figure 8; CACM §4.1): synchronization events in
 * synchronization order, as a ring of cells in typed arrays. Positions are absolute (0, 1, 2, ... for the
 * whole run); `head` is the first live cell, `tail` the next position to be written (Figure 8's empty tail
 * cell). An Info's `pos` is a position in [head, tail]: the lockset walk starts there.
 *
 * Each cell has a reference count of the Infos pointing at it (§5.4); `collect` discards the prefix of
 * unreferenced cells. The ring doubles when full.
 */
/** Cells of a new list's ring. */
const INITIAL_CELLS = 1 << 12;

export class SyncEventList {
  head = 0;
  tail = 0;
  /** Cells - 1 (cells: a power of two); -1 before the constructor's {@link growRing}. */
  mask = -1;
  /** Cell kinds: `SyncKind` of ../../model/sync.ts. */
  kind: Uint8Array = new Uint8Array(0);
  thread: Int32Array = new Int32Array(0);
  /** Lock, volatile or thread id of the event. */
  target: Int32Array = new Int32Array(0);
  /** R ∪ W of a commit cell. */
  sets: (Int32Array | null)[] = [];
  refs: Int32Array = new Int32Array(0);

  /**
   * The ring's first {@link INITIAL_CELLS} cells, allocated by {@link growRing} as every later growth is: each field is
   * then written twice before any code runs (V8 then compiles no code that relies on its first value:
   * docs/ARCHITECTURE.md, "Tables that grow").
   */
  constructor() {
    this.growRing();
  }

  /** Appends a cell. @returns its position. */
  append(kind: number, thread: number, target: number, set: Int32Array | null): number {
    if (this.tail - this.head + 2 > this.mask + 1) this.growRing();
    const pos = this.tail;
    const c = pos & this.mask;
    this.kind[c] = kind;
    this.thread[c] = thread;
    this.target[c] = target;
    this.sets[c] = set;
    this.tail = pos + 1;
    return pos;
  }

  retain(pos: number): void {
    this.refs[pos & this.mask]++;
  }

  release(pos: number): void {
    this.refs[pos & this.mask]--;
  }

  /**
   * Moves one reference from the cell at `from` to the cell at `to` ({@link release} then {@link retain}, in one call:
   * an Info renewed at a later position, on most accesses; issue 24 §3).
   */
  move(from: number, to: number): void {
    const refs = this.refs;
    const mask = this.mask;
    refs[from & mask]--;
    refs[to & mask]++;
  }

  /** Discards unreferenced cells from the head. @returns how many. */
  collect(): number {
    let n = 0;
    const mask = this.mask;
    while (this.head < this.tail && this.refs[this.head & mask] === 0) {
      this.sets[this.head & mask] = null;
      this.head++;
      n++;
    }
    return n;
  }

  /** Doubles the ring (allocates its {@link INITIAL_CELLS} cells when it has none), keeping the cells [head, tail]. */
  private growRing(): void {
    const cap = this.mask < 0 ? INITIAL_CELLS : (this.mask + 1) * 2;
    const mask = cap - 1;
    const kind = new Uint8Array(cap);
    const thread = new Int32Array(cap);
    const target = new Int32Array(cap);
    const sets: (Int32Array | null)[] = new Array(cap).fill(null);
    const refs = new Int32Array(cap);
    for (let p = this.head; p <= this.tail && this.mask >= 0; p++) {
      const a = p & this.mask;
      const b = p & mask;
      kind[b] = this.kind[a];
      thread[b] = this.thread[a];
      target[b] = this.target[a];
      sets[b] = this.sets[a];
      refs[b] = this.refs[a];
    }
    this.mask = mask;
    this.kind = kind;
    this.thread = thread;
    this.target = target;
    this.sets = sets;
    this.refs = refs;
  }
}
