import { commit } from './commit.js';
import { attachWords, createWords, idOf, MAX_ORECS_LOG2, MIN_ORECS_LOG2 } from './layout.js';
import { isLocked } from './orecs.js';
import { ABORT, Transaction } from './transaction.js';
import { backoff, MAX_WAIT_MS, waitWhile } from './wait.js';

/** Options of `new STM(options)`. */
export interface STMOptions {
  /**
   * Number of ownership records, a power of two in 2^4 … 2^24 (default 2^16, a 256 KiB table). Each covers the
   * aligned 8-byte stripes hashed to it; more records mean fewer false conflicts between unrelated locations.
   */
  orecs?: number;
}

/**
 * An STM's identity, plain and structured-cloneable: post it to another worker and rebuild the STM there with
 * `STM.from(handle)`. `buffer` holds the clock and the ownership records; `id` is the STM's random id.
 */
export interface STMHandle {
  kind: 'goldilocks/stm';
  buffer: SharedArrayBuffer;
  id: number;
}

/** The running transaction of this thread, by STM id (nested `atomic` calls flatten into it). */
const running = new Map<number, Transaction>();

/** Words for the constructor to attach to instead of creating (set by `from` around `new STM()`). */
let attaching: Int32Array | undefined;

/**
 * A software transactional memory over shared typed arrays: TL2 (Dice, Shalev, Shavit, *Transactional Locking
 * II*, DISC 2006), with a global version clock (`clock.ts`), versioned write locks in a shared ownership-record
 * table (`orecs.ts`), read validation at each read and at commit (`transaction.ts`, opacity) and commit-time
 * locking in a fixed order (`commit.ts`, no deadlock).
 *
 * ```js
 * const stm = new STM();
 * const accounts = new Int32Array(new SharedArrayBuffer(8 * 4));
 * stm.atomic((tx) => {
 *   tx.write(accounts, 0, tx.read(accounts, 0) - 10);
 *   tx.write(accounts, 1, tx.read(accounts, 1) + 10);
 * });
 * worker.postMessage({ stm: stm.handle, accounts: accounts.buffer }); // there: STM.from(data.stm)
 * ```
 *
 * Buffers need no registration. `SharedArrayBuffer` objects have no identity across threads (each postMessage
 * makes a new object over the same memory), so the ownership records are found by the buffer's byte length (its
 * maximum byte length when growable) and the byte index, which every thread computes alike, however it received
 * the buffer; buffers of equal size share records (false conflicts only). Within one transaction a thread must
 * reach a memory through one `SharedArrayBuffer` object: a write through one object is not seen by a read
 * through another object over the same memory until the commit.
 *
 * The transactional data should be accessed only in transactions (as in TL2, a plain write is not seen by the
 * validation; a plain read may see a commit's write-back half done).
 */
export class STM {
  /** The shared words: header, clock and ownership records (`layout.ts`). */
  private readonly words: Int32Array;
  /** The STM's random id, the same in every thread. */
  readonly id: number;

  /**
   * @throws RangeError when `options.orecs` is not a power of two in 2^4 … 2^24.
   */
  constructor(options?: STMOptions) {
    if (attaching !== undefined) {
      this.words = attaching;
      attaching = undefined;
    } else {
      const orecs = options?.orecs ?? 2 ** 16;
      const log2 = Math.log2(orecs);
      if (!Number.isInteger(log2) || log2 < MIN_ORECS_LOG2 || log2 > MAX_ORECS_LOG2)
        throw new RangeError(`stm: orecs must be a power of two in 2^4 … 2^24, got ${String(orecs)}`);
      this.words = createWords(log2);
    }
    this.id = idOf(this.words);
  }

  /**
   * The STM whose `handle` this is (made in this or another thread).
   * @throws TypeError when `handle` is not an STM's handle: not an object, no `SharedArrayBuffer`, a buffer that
   *   does not hold an STM's words, or an `id` that is not the id of the STM in that buffer.
   */
  static from(handle: STMHandle): STM {
    const h = handle as Partial<STMHandle> | null;
    if (typeof h !== 'object' || h === null || h.kind !== 'goldilocks/stm')
      throw new TypeError('stm: STM.from needs the handle of an STM (stm.handle)');
    const words = h.buffer instanceof SharedArrayBuffer ? attachWords(h.buffer) : undefined;
    if (words === undefined) throw new TypeError("stm: the handle's buffer does not hold an STM");
    if (h.id !== idOf(words))
      throw new TypeError("stm: the handle's id is not the id of the STM in its buffer");
    attaching = words;
    return new STM();
  }

  /** `{ kind, buffer, id }`: post it to another worker, rebuild with `STM.from`. */
  get handle(): STMHandle {
    return { kind: 'goldilocks/stm', buffer: this.words.buffer as SharedArrayBuffer, id: this.id };
  }

  /**
   * Runs `fn` as a transaction and returns its result. On a conflict the attempt is discarded and `fn` runs
   * again (after waiting, with `Atomics.wait`, for the commit it conflicted with, or a randomized backoff), so
   * `fn` may run several times: it should have no effects outside `tx`.
   *
   * An exception thrown by `fn` aborts the transaction (nothing is written) and propagates. A call made while
   * this thread already runs a transaction of the same STM flattens into it: `fn` runs with the outer `tx` and
   * its writes commit (or abort) with the outer transaction.
   *
   * @throws whatever `fn` throws; TypeError when `fn` returns a promise or other thenable (a transaction is
   *   synchronous: it has ended before the promise settles); RangeError when the version clock is exhausted.
   */
  atomic<T>(fn: (tx: Transaction) => T): T {
    const outer = running.get(this.id);
    if (outer !== undefined) return fn(outer);
    for (let attempt = 1; ; attempt++) {
      const tx = new Transaction(this.words);
      running.set(this.id, tx);
      let result: T;
      let committed = false;
      try {
        result = fn(tx);
        if (!tx.doomed) {
          if (isThenable(result))
            throw new TypeError(
              'stm: the function given to atomic returned a promise (it must be synchronous)',
            );
          committed = commit(tx);
          if (committed) return result;
        }
      } catch (e) {
        if (e !== ABORT && !tx.doomed) throw e;
      } finally {
        tx.end();
        running.delete(this.id);
      }
      this.waitAfter(tx, attempt);
    }
  }

  /** Before a retry: wait for the record that was locked, else back off (`wait.ts`). */
  private waitAfter(tx: Transaction, attempt: number): void {
    if (tx.conflict >= 0 && isLocked(tx.conflictWord))
      waitWhile(this.words, tx.conflict, tx.conflictWord, MAX_WAIT_MS);
    else backoff(this.words, attempt);
  }
}

function isThenable(v: unknown): boolean {
  return (
    (typeof v === 'object' || typeof v === 'function') &&
    v !== null &&
    typeof (v as { then?: unknown }).then === 'function'
  );
}
