/**
 * The synchronization event list of Goldilocks (PLDI'07 §5, Figure 8; CACM §4.1): synchronization events in
 * synchronization order, as a ring of cells in typed arrays. Positions are absolute (0, 1, 2, ... for the
 * whole run); `head` is the first live cell, `tail` the next position to be written (Figure 8's empty tail
 * cell). An Info's `pos` is a position in [head, tail]: the lockset walk starts there.
 *
 * Each cell has a reference count of the Infos pointing at it (§5.4); `collect` discards the prefix of
 * unreferenced cells. The ring doubles when full.
 */
export class SyncEventList {
  head = 0;
  tail = 0;
  mask = (1 << 12) - 1;
  /** Cell kinds: `SyncKind` of ../../model/sync.ts. */
  kind: Uint8Array = new Uint8Array(this.mask + 1);
  thread: Int32Array = new Int32Array(this.mask + 1);
  /** Lock, volatile or thread id of the event. */
  target: Int32Array = new Int32Array(this.mask + 1);
  /** R ∪ W of a commit cell. */
  sets: (Int32Array | null)[] = new Array(this.mask + 1).fill(null);
  refs: Int32Array = new Int32Array(this.mask + 1);

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

  private growRing(): void {
    const cap = (this.mask + 1) * 2;
    const mask = cap - 1;
    const kind = new Uint8Array(cap);
    const thread = new Int32Array(cap);
    const target = new Int32Array(cap);
    const sets: (Int32Array | null)[] = new Array(cap).fill(null);
    const refs = new Int32Array(cap);
    for (let p = this.head; p <= this.tail; p++) {
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
