import { type Staging, staging } from './location.js';
import type { AccessLog } from './observer.js';

/**
 * A transaction's read set and write set (TL2, Dice, Shalev, Shavit, DISC 2006, §2.1: "a local read-set and
 * write-set", the write set a redo log applied at commit).
 */

/** A write-set entry: one stripe (aligned 8-byte word) of one buffer, its record, and its slot of staged bytes. */
export interface WriteEntry {
  buffer: SharedArrayBuffer;
  /** Byte index of the stripe's first byte (a multiple of 8). */
  stripe: number;
  /** Index of the stripe's ownership record in the STM's words. */
  record: number;
  /** The entry's slot in the write set's staging (`bytes[8 × slot …]`), its index in `entries`. */
  slot: number;
  /** Bit `i` set when byte `i` of the stripe holds a value to write. */
  mask: number;
}

/** No staging yet (a read-only attempt never takes one). */
const NONE: Staging = staging(0);

/**
 * Stagings of ended attempts, for the next ones of this thread (several can be live at once: a transaction of one
 * STM inside a transaction of another).
 */
const pool: Staging[] = [];

/** Entries found by a scan up to this many; past it, through a map by buffer and stripe. */
const SCANNED = 8;

/**
 * The redo log: staged bytes by `(buffer object, stripe)`, in first-write order. A thread reaches one memory
 * through one `SharedArrayBuffer` object per transaction (see `STM`'s docstring): the log keys buffers by object.
 * A small log (most transactions) is searched by a scan and stages into one buffer grown by doubling: no
 * allocation per entry but the entry itself.
 */
export class WriteSet {
  readonly entries: WriteEntry[] = [];
  /** The staged bytes of every entry (slot = entry index): taken from the pool at the first write, grown by doubling. */
  staged: Staging = NONE;
  private byBuffer: Map<SharedArrayBuffer, Map<number, WriteEntry>> | undefined;

  /** The attempt is over: its staging goes back to the pool (its entries' bytes are no longer read). */
  release(): void {
    if (this.staged !== NONE) pool.push(this.staged);
    this.staged = NONE;
  }

  /** The entry of `stripe` in `buffer`, if this transaction wrote there. */
  find(buffer: SharedArrayBuffer, stripe: number): WriteEntry | undefined {
    const entries = this.entries;
    if (entries.length > SCANNED) return this.byBuffer?.get(buffer)?.get(stripe);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e.stripe === stripe && e.buffer === buffer) return e;
    }
    return undefined;
  }

  /** The entry of `stripe` in `buffer`, made empty on the first write there. */
  stage(buffer: SharedArrayBuffer, stripe: number, record: number): WriteEntry {
    let e = this.find(buffer, stripe);
    if (e !== undefined) return e;
    const slot = this.entries.length;
    if (this.staged === NONE) this.staged = pool.pop() ?? staging(4);
    if (8 * slot === this.staged.bytes.length) {
      const grown = staging(2 * slot);
      grown.bytes.set(this.staged.bytes);
      this.staged = grown;
    }
    e = { buffer, stripe, record, slot, mask: 0 };
    this.entries.push(e);
    if (slot === SCANNED) for (const x of this.entries) this.index(x);
    else if (slot > SCANNED) this.index(e);
    return e;
  }

  private index(e: WriteEntry): void {
    this.byBuffer ??= new Map();
    let stripes = this.byBuffer.get(e.buffer);
    if (stripes === undefined) {
      stripes = new Map();
      this.byBuffer.set(e.buffer, stripes);
    }
    stripes.set(e.stripe, e);
  }

  /**
   * The distinct records of the entries (and of `reads`, when given) in increasing order: TL2 §2.1 step 3 locks
   * them in this fixed order, so two commits never wait for each other in a cycle.
   */
  records(reads?: ReadSet): number[] {
    const rs: number[] = [];
    for (let i = 0; i < this.entries.length; i++) rs.push(this.entries[i].record);
    if (reads !== undefined) for (let i = 0; i < reads.length; i++) rs.push(reads[i]);
    rs.length = distinct(rs);
    return rs;
  }

  /** The entries as an observer's access log (`observer.ts`): buffer, stripe, byte mask of each. */
  log(): AccessLog {
    const log: AccessLog = [];
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i];
      log.push(e.buffer, e.stripe, e.mask);
    }
    return log;
  }
}

/**
 * Sorts the record indices `rs` in increasing order and moves the distinct ones to its front, in place.
 * @returns how many are distinct: `rs[0 … n − 1]` (the rest is left as it is; the caller truncates if it needs).
 */
export function distinct(rs: number[]): number {
  sortNumbers(rs);
  let n = 0;
  for (let i = 0; i < rs.length; i++) if (i === 0 || rs[i] !== rs[n - 1]) rs[n++] = rs[i];
  return n;
}

/**
 * Sorts `a` in increasing order: an insertion sort for the few records of most transactions, else the built-in
 * sort (which the live runtime's patched `Array.prototype.sort` runs too, at a cost per call).
 */
function sortNumbers(a: number[]): void {
  if (a.length > 32) {
    a.sort((x, y) => x - y);
    return;
  }
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/** The read set: the record index of each validated read, in read order (repeats allowed). */
export type ReadSet = number[];
