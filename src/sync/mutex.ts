import { A, observer } from './observer.js';
import {
  attach,
  deadlineAfter,
  type Placement,
  type SyncHandle,
  SyncPrimitive,
  thisThread,
  waitUntil,
} from './primitive.js';
import { Site } from './sites.js';

/** Word 0: 0 free, 1 locked, 2 locked and maybe waited on. */
const STATE = 0;
/** Word 1: owner's `threadId + 1`, 0 when free. */
const OWNER = 1;

/**
 * A mutual-exclusion lock over two Int32 words of a `SharedArrayBuffer`: `[0]` state (0 free, 1 locked, 2 locked
 * with possible waiters), `[1]` the owner's `threadId + 1` (0 when free). The algorithm is "mutex 3" of Drepper,
 * *Futexes Are Tricky* (2011), on `Atomics.compareExchange/exchange/sub/wait/notify` (ECMA-262 §25.4): an
 * uncontended lock is one compare-exchange, an uncontended unlock one subtraction, and neither waits or notifies.
 *
 * Not re-entrant: locking a mutex the calling thread already holds throws instead of deadlocking. Not fair: a
 * thread arriving when the lock is free may take it ahead of woken waiters.
 *
 * Observer: `acquire(ref)` after the lock is taken, `release(ref)` before it is given up (kind `'mutex'`), so
 * unlock → later lock is a happens-before edge and the runtime sees the mutex as a held lock.
 */
export class Mutex extends SyncPrimitive {
  /** Bytes of the region (two Int32 words). */
  static readonly BYTES = 8;

  /**
   * @param name for reports; default `mutex-<threadId>-<n>`.
   * @param at where to put the words (initialized here to "free"); default a new SharedArrayBuffer.
   */
  constructor(name?: string, at?: Placement) {
    super('mutex', 2, name, at);
  }

  /** The mutex whose `handle` this is (made in this or another thread). */
  static from(handle: SyncHandle): Mutex {
    return new Mutex(handle.name, attach(handle));
  }

  /**
   * Blocks until the calling thread holds the mutex.
   * @throws Error when the calling thread already holds it.
   */
  lock(): void {
    this.tryLock(Infinity);
  }

  /**
   * Takes the mutex if it is free within `timeoutMs` milliseconds (default 0: do not wait).
   * @returns whether the calling thread now holds it.
   * @throws Error when the calling thread already holds it; RangeError when `timeoutMs` is negative or NaN.
   */
  tryLock(timeoutMs = 0): boolean {
    const w = this.words;
    const deadline = deadlineAfter(timeoutMs);
    let c = A.compareExchange(w, STATE, 0, 1, Site.MutexTake);
    if (c !== 0) {
      // held: by this thread? (tested only now, so that an uncontended lock is one atomic operation, not two)
      if (A.load(w, OWNER, Site.MutexOwnerTest) === thisThread)
        throw new Error(`mutex ${this.name}: already held by this thread (not re-entrant)`);
      if (timeoutMs === 0) return false;
      if (c !== 2) c = A.exchange(w, STATE, 2, Site.MutexContend);
      while (c !== 0) {
        if (!waitUntil(w, STATE, 2, deadline)) return false;
        c = A.exchange(w, STATE, 2, Site.MutexRetake);
      }
    }
    A.store(w, OWNER, thisThread, Site.MutexOwn);
    observer?.acquire(this.ref);
    return true;
  }

  /**
   * Gives the mutex up and wakes one waiter, if any.
   * @throws Error when the calling thread does not hold it.
   */
  unlock(): void {
    const w = this.words;
    if (A.load(w, OWNER, Site.MutexHolderTest) !== thisThread)
      throw new Error(`mutex ${this.name}: unlock by a thread that does not hold it`);
    A.store(w, OWNER, 0, Site.MutexDisown);
    observer?.release(this.ref);
    if (A.sub(w, STATE, 1, Site.MutexRelease) !== 1) {
      A.store(w, STATE, 0, Site.MutexFree);
      A.notify(w, STATE, 1, Site.MutexWake);
    }
  }

  /** Runs `fn` holding the mutex; unlocks also when `fn` throws. @returns what `fn` returns. */
  withLock<T>(fn: () => T): T {
    this.lock();
    try {
      return fn();
    } finally {
      this.unlock();
    }
  }
}
