import { type Staged, staged } from './location.js';
import type { AccessLog } from './observer.js';

/**
 * A transaction's read set and write set (TL2, Dice, Shalev, Shavit, DISC 2006, §2.1: "a local read-set and
 * write-set", the write set a redo log applied at commit).
 */

/** A write-set entry: the staged bytes of one stripe (aligned 8-byte word) of one buffer, and its record. */
export interface WriteEntry extends Staged {
  buffer: SharedArrayBuffer;
  /** Byte index of the stripe's first byte (a multiple of 8). */
  stripe: number;
  /** Index of the stripe's ownership record in the STM's words. */
  record: number;
}

/**
 * The redo log: staged bytes by `(buffer object, stripe)`, in first-write order. A thread reaches one memory
 * through one `SharedArrayBuffer` object per transaction (see `STM`'s docstring): the log keys buffers by object.
 */
export class WriteSet {
  readonly entries: WriteEntry[] = [];
  private readonly byBuffer = new Map<SharedArrayBuffer, Map<number, WriteEntry>>();

  /** The entry of `stripe` in `buffer`, if this transaction wrote there. */
  find(buffer: SharedArrayBuffer, stripe: number): WriteEntry | undefined {
    if (this.entries.length === 0) return undefined;
    return this.byBuffer.get(buffer)?.get(stripe);
  }

  /** The entry of `stripe` in `buffer`, made empty on the first write there. */
  stage(buffer: SharedArrayBuffer, stripe: number, record: number): WriteEntry {
    let stripes = this.byBuffer.get(buffer);
    if (stripes === undefined) {
      stripes = new Map();
      this.byBuffer.set(buffer, stripes);
    }
    let e = stripes.get(stripe);
    if (e === undefined) {
      e = Object.assign(staged(), { buffer, stripe, record });
      stripes.set(stripe, e);
      this.entries.push(e);
    }
    return e;
  }

  /**
   * The distinct records of the entries (and of `reads`, when given) in increasing order: TL2 §2.1 step 3 locks
   * them in this fixed order, so two commits never wait for each other in a cycle.
   */
  records(reads?: ReadSet): number[] {
    const rs = this.entries.map((e) => e.record);
    if (reads !== undefined) for (const r of reads) rs.push(r);
    rs.sort((a, b) => a - b);
    let n = 0;
    for (let i = 0; i < rs.length; i++) if (i === 0 || rs[i] !== rs[n - 1]) rs[n++] = rs[i];
    rs.length = n;
    return rs;
  }

  /** The entries as an observer's access log (`observer.ts`): buffer, stripe, byte mask of each. */
  log(): AccessLog {
    const log: AccessLog = [];
    for (const e of this.entries) log.push(e.buffer, e.stripe, e.mask);
    return log;
  }
}

/** The read set: the record index of each validated read, in read order (repeats allowed). */
export type ReadSet = number[];
