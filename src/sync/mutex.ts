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

/** Word 0, the state: 0 free, else `owner × 2 + waited` (`owner` the holder's `threadId + 1`). */
const STATE = 0;
/** The state word of a mutex held by the calling thread, no waiter announced. */
const HELD = thisThread * 2;
/** The state bit set while a thread may wait for the mutex (its unlock then wakes one). */
const WAITED = 1;

/**
 * A mutual-exclusion lock over the first Int32 word of a region of two in a `SharedArrayBuffer` (the second is
 * unused): 0 when free, else the owner's `threadId + 1` times 2, plus 1 while a waiter may sleep. The algorithm is
 * "mutex 3" of Drepper, *Futexes Are Tricky* (2011), with the owner in the state word, on
 * `Atomics.compareExchange/store/wait/notify` (ECMA-262 §25.4): an uncontended lock is one compare-exchange, an
 * uncontended unlock a load (the holder test) and a compare-exchange, and neither waits or notifies.
 *
 * Not re-entrant: locking a mutex the calling thread already holds throws instead of deadlocking. Not fair: a
 * thread arriving when the lock is free may take it ahead of woken waiters.
 *
 * Observer: `acquire(ref)` after the lock is taken, `release(ref)` before it is given up (kind `'mutex'`), so
 * unlock → later lock is a happens-before edge and the runtime sees the mutex as a held lock; through the
 * observer's `acquireByCompareExchange`/`releaseByCompareExchange` when it has them (each report and its
 * compare-exchange as one step).
 */
export class Mutex extends SyncPrimitive {
  /** Bytes of the region (two Int32 words; the second is unused, kept for the regions placed by callers). */
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
    const deadline = deadlineAfter(timeoutMs);
    const c = this.take(HELD, Site.MutexTake);
    if (c !== 0) {
      // held: by this thread? (the owner is in the state word: no second atomic operation to record or test it)
      if (c >>> 1 === thisThread)
        throw new Error(`mutex ${this.name}: already held by this thread (not re-entrant)`);
      if (timeoutMs === 0 || !this.contend(c, deadline)) return false;
    }
    return true;
  }

  /**
   * Compare-exchange of the state word from free to `state` at `site`, the observer's acquire right after it when
   * it took the mutex (one step of the observer when it has `acquireByCompareExchange`).
   * @returns the state word seen (0: the calling thread now holds the mutex).
   */
  private take(state: number, site: number): number {
    const o = observer;
    if (o?.acquireByCompareExchange)
      return o.acquireByCompareExchange(this.ref, this.words, STATE, 0, state, site);
    const c = A.compareExchange(this.words, STATE, 0, state, site);
    if (c === 0) o?.acquire(this.ref);
    return c;
  }

  /**
   * The contended lock, `c` the state word seen: announces a waiter and sleeps until the mutex is free, taking it
   * then as "maybe waited on" (other threads may sleep on it too).
   * @returns whether the calling thread holds the mutex before `deadline` (from `deadlineAfter`).
   */
  private contend(c: number, deadline: number): boolean {
    const w = this.words;
    for (;;) {
      if (c === 0) {
        c = this.take(HELD | WAITED, Site.MutexRetake);
        if (c === 0) return true;
      } else if ((c & WAITED) === 0) {
        // held, no waiter announced: announce this one (or see the word change, and look again)
        const seen = A.compareExchange(w, STATE, c, c | WAITED, Site.MutexContend);
        c = seen === c ? c | WAITED : seen;
      } else {
        if (!waitUntil(w, STATE, c, deadline)) return false;
        c = this.take(HELD | WAITED, Site.MutexRetake);
        if (c === 0) return true;
      }
    }
  }

  /**
   * Gives the mutex up and wakes one waiter, if any.
   * @throws Error when the calling thread does not hold it.
   */
  unlock(): void {
    const w = this.words;
    if (A.load(w, STATE, Site.MutexHolderTest) >>> 1 !== thisThread)
      throw new Error(`mutex ${this.name}: unlock by a thread that does not hold it`);
    // the observer's release right before the compare-exchange (one step of the observer when it has
    // `releaseByCompareExchange`); only the holder changes a held word but to announce a waiter: so it is HELD or
    // HELD | WAITED here
    const o = observer;
    let c: number;
    if (o?.releaseByCompareExchange)
      c = o.releaseByCompareExchange(this.ref, w, STATE, HELD, 0, Site.MutexRelease);
    else {
      o?.release(this.ref);
      c = A.compareExchange(w, STATE, HELD, 0, Site.MutexRelease);
    }
    if (c !== HELD) {
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
