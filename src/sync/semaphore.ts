import { A, observer } from './observer.js';
import {
  attach,
  checkCount,
  deadlineAfter,
  type Placement,
  type SyncHandle,
  SyncPrimitive,
  waitUntil,
} from './primitive.js';
import { Site } from './sites.js';

/** Word 0: permits available (≥ 0). */
const PERMITS = 0;

/**
 * A counting semaphore over one Int32 word of a `SharedArrayBuffer`: `[0]` the permits available (0 … 2^31−1).
 * `acquire` takes one with `Atomics.compareExchange` and `Atomics.wait`s on the word while it is 0; `release`
 * adds with a compare-exchange loop (so it can refuse an overflow) and `Atomics.notify`s as many waiters as it
 * added permits (ECMA-262 §25.4). Not fair: a thread arriving while permits are available may take one ahead of
 * woken waiters. Any thread may release (permits are not owned).
 *
 * Observer (kind `'semaphore'`): `release` `publish(ref)`es before adding, `acquire` `subscribe(ref)`s after
 * taking, so every release happens-before every later acquire.
 */
export class Semaphore extends SyncPrimitive {
  /** Bytes of the region (one Int32 word). */
  static readonly BYTES = 4;

  /**
   * @param permits initial permits, an integer 0 … 2^31−1.
   * @param name for reports; default `semaphore-<threadId>-<n>`.
   * @param at where to put the word (initialized here to `permits`); default a new SharedArrayBuffer.
   * @throws RangeError when `permits` is out of range.
   */
  constructor(permits: number, name?: string, at?: Placement) {
    checkCount('permits', permits, 0);
    super('semaphore', 1, name, at, (w) => A.store(w, PERMITS, permits, Site.SemaphoreInit));
  }

  /** The semaphore whose `handle` this is (made in this or another thread), with its current permits. */
  static from(handle: SyncHandle): Semaphore {
    return new Semaphore(0, handle.name, attach(handle));
  }

  /** Blocks until a permit is available and takes it. */
  acquire(): void {
    this.tryAcquire(Infinity);
  }

  /**
   * Takes a permit if one is available within `timeoutMs` milliseconds (default 0: do not wait).
   * @returns whether a permit was taken.
   * @throws RangeError when `timeoutMs` is negative or NaN.
   */
  tryAcquire(timeoutMs = 0): boolean {
    const w = this.words;
    const deadline = deadlineAfter(timeoutMs);
    let c = A.load(w, PERMITS, Site.SemaphoreRead);
    for (;;) {
      if (c > 0) {
        const seen = A.compareExchange(w, PERMITS, c, c - 1, Site.SemaphoreTake);
        if (seen === c) break;
        c = seen;
      } else {
        if (!waitUntil(w, PERMITS, 0, deadline)) return false;
        c = A.load(w, PERMITS, Site.SemaphoreReread);
      }
    }
    observer?.subscribe(this.ref);
    return true;
  }

  /**
   * Returns `k` permits (default 1) and wakes up to `k` waiters.
   * @throws RangeError when `k` is not an integer ≥ 1 or the permits would exceed 2^31−1.
   */
  release(k = 1): void {
    checkCount('k', k, 1);
    const w = this.words;
    observer?.publish(this.ref);
    let c = A.load(w, PERMITS, Site.SemaphoreReleaseRead);
    for (;;) {
      if (c > 0x7fffffff - k)
        throw new RangeError(`semaphore ${this.name}: ${c} + ${k} permits overflow 2^31−1`);
      const seen = A.compareExchange(w, PERMITS, c, c + k, Site.SemaphoreAdd);
      if (seen === c) break;
      c = seen;
    }
    A.notify(w, PERMITS, k, Site.SemaphoreWake);
  }
}
