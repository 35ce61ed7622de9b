import { sampleClock } from './clock.js';
import {
  at,
  decode,
  type Element,
  encode,
  loadRaw,
  locate,
  scratchBytes,
  sizeKey,
  type TypedView,
} from './location.js';
import type { ReadSet } from './log.js';
import { WriteSet } from './log.js';
import { A, type AccessLog, observer } from './observer.js';
import { isLocked, recordMask, recordOf, versionOf } from './orecs.js';

/** What a doomed transaction's operations throw, caught by `STM.atomic` to retry (never seen by callers). */
export const ABORT: unique symbol = Symbol('stm: transaction aborted (conflict)');

const ACTIVE = 0;
const DOOMED = 1;
const ENDED = 2;

/**
 * One attempt of a transaction: the argument of the function given to `STM.atomic`. Reads see the memory as it
 * was at the attempt's start (its read version), plus the attempt's own writes; writes are buffered until the
 * commit (TL2, Dice, Shalev, Shavit, *Transactional Locking II*, DISC 2006, §2.1).
 *
 * Opacity: each read is validated against the read version when it happens (§2.1 step 2: the record is unlocked
 * and not newer than `rv` before the load and unchanged after it), so even an attempt that will abort never sees
 * a state no serial execution produces. A failed validation ends the attempt at once (the operation throws an
 * internal signal that `atomic` catches and retries on); if the function catches and swallows it, later
 * operations throw it again and `atomic` still retries.
 */
export class Transaction {
  /** @internal */ state = ACTIVE;
  /** @internal the read version `rv`. */ readonly rv: number;
  /** @internal */ readonly reads: ReadSet = [];
  /** @internal */ readonly writes = new WriteSet();
  /** @internal the locations read from memory, kept only for an observer (`observer.ts`). */
  readonly readLog: AccessLog = [];
  /** @internal the record whose validation failed, and the word seen there (for `atomic`'s wait). */
  conflict = -1;
  /** @internal */ conflictWord = 0;
  private readonly mask: number;

  /** @internal */
  constructor(readonly words: Int32Array) {
    this.rv = sampleClock(words);
    this.mask = recordMask(words);
  }

  /**
   * `view[index]` inside the transaction.
   * @param view an integer or float typed array over a `SharedArrayBuffer`.
   * @returns a number, or a bigint for BigInt64Array/BigUint64Array.
   * @throws TypeError when the view is not a typed array over a `SharedArrayBuffer` or the transaction has
   *   ended; RangeError when `index` is not an integer in `0 … view.length − 1`.
   */
  read(view: BigInt64Array | BigUint64Array, index: number): bigint;
  read(view: Exclude<TypedView, BigInt64Array | BigUint64Array>, index: number): number;
  read(view: TypedView, index: number): Element;
  read(view: TypedView, index: number): Element {
    this.check();
    locate(view, index);
    const { buffer, byteIndex, width, tag } = at;
    const stripe = byteIndex - (byteIndex % 8);
    const offset = byteIndex - stripe;
    const bits = ((1 << width) - 1) << offset;
    const entry = this.writes.find(buffer, stripe);
    const staged = this.writes.staged.bytes;
    if (entry !== undefined && (entry.mask & bits) === bits) {
      for (let i = 0; i < width; i++) scratchBytes[i] = staged[8 * entry.slot + offset + i];
      return decode(tag);
    }
    const words = this.words;
    const r = recordOf(this.mask, sizeKey(buffer), byteIndex);
    const before = A.load(words, r);
    if (isLocked(before) || versionOf(before) > this.rv) this.abort(r, before);
    loadRaw(buffer, byteIndex, width);
    const after = A.load(words, r);
    if (after !== before) this.abort(r, after);
    this.reads.push(r);
    if (observer !== undefined) this.readLog.push(buffer, stripe, bits);
    if (entry !== undefined)
      for (let i = 0; i < width; i++)
        if ((entry.mask >>> (offset + i)) & 1) scratchBytes[i] = staged[8 * entry.slot + offset + i];
    return decode(tag);
  }

  /**
   * Sets `view[index] = value` inside the transaction (visible to this transaction's reads at once, to others
   * at its commit). The value converts as an element store of the view's kind does.
   * @throws TypeError when the view is not a typed array over a `SharedArrayBuffer`, the value does not convert
   *   (a number into a BigInt array, a bigint into a number array) or the transaction has ended; RangeError when
   *   `index` is not an integer in `0 … view.length − 1`.
   */
  write(view: BigInt64Array | BigUint64Array, index: number, value: bigint): void;
  write(view: Exclude<TypedView, BigInt64Array | BigUint64Array>, index: number, value: number): void;
  write(view: TypedView, index: number, value: Element): void;
  write(view: TypedView, index: number, value: Element): void {
    this.check();
    locate(view, index);
    const { buffer, byteIndex, width, tag } = at;
    encode(tag, value);
    this.check();
    const stripe = byteIndex - (byteIndex % 8);
    const offset = byteIndex - stripe;
    const entry = this.writes.stage(buffer, stripe, recordOf(this.mask, sizeKey(buffer), byteIndex));
    const staged = this.writes.staged.bytes;
    for (let i = 0; i < width; i++) staged[8 * entry.slot + offset + i] = scratchBytes[i];
    entry.mask |= ((1 << width) - 1) << offset;
  }

  /** @internal whether a validation failed in this attempt. */
  get doomed(): boolean {
    return this.state === DOOMED;
  }

  /** @internal the attempt is over: later operations throw a TypeError. */
  end(): void {
    this.state = ENDED;
    this.writes.release();
  }

  private check(): void {
    if (this.state === ACTIVE) return;
    if (this.state === DOOMED) throw ABORT;
    throw new TypeError('stm: the transaction has ended (use tx only inside the function given to atomic)');
  }

  private abort(record: number, word: number): never {
    this.state = DOOMED;
    this.conflict = record;
    this.conflictWord = word;
    throw ABORT;
  }
}
