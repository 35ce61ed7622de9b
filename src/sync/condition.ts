import type { Mutex } from './mutex.js';
import { A, observer } from './observer.js';
import {
  attach,
  deadlineAfter,
  type Placement,
  type SyncHandle,
  SyncPrimitive,
  waitUntil,
} from './primitive.js';
import { Site } from './sites.js';

/** Word 0: the sequence counter, +1 per notify (wraps at 2^32). */
const SEQ = 0;

/**
 * A condition variable over one Int32 word of a `SharedArrayBuffer`: `[0]` a sequence counter that every
 * `notify`/`notifyAll` increments and waiters `Atomics.wait` on (a sequence-counter futex; `Atomics.wait`
 * compares and sleeps atomically, ECMA-262 §25.4 `Atomics.wait`). A waiter reads the counter while holding the
 * mutex, so a notify between its unlock and its wait changes the counter and the wait returns at once: no wake-up
 * is lost (unless exactly a multiple of 2^32 notifies fall in between). Change the predicate while holding the
 * mutex; wake-ups may be spurious, so call `wait` in a loop that re-checks it.
 *
 * Observer: `wait` reports the mutex's release and re-acquire through the mutex itself; `notify`/`notifyAll`
 * `publish(ref)` (kind `'condition'`) before bumping the counter, and a waiter that did not time out
 * `subscribe(ref)`s on waking, so a notify happens-before the wake-up it causes even when the notifier does not
 * hold the mutex.
 */
export class Condition extends SyncPrimitive {
  /** Bytes of the region (one Int32 word). */
  static readonly BYTES = 4;

  /**
   * @param name for reports; default `condition-<threadId>-<n>`.
   * @param at where to put the word (initialized here); default a new SharedArrayBuffer.
   */
  constructor(name?: string, at?: Placement) {
    super('condition', 1, name, at);
  }

  /** The condition whose `handle` this is (made in this or another thread). */
  static from(handle: SyncHandle): Condition {
    return new Condition(handle.name, attach(handle));
  }

  /**
   * Unlocks `mutex`, sleeps until notified or `timeoutMs` milliseconds pass (default: no timeout), then locks
   * `mutex` again (that re-lock is not bounded by the timeout).
   * @returns false when it timed out, true when woken (possibly spuriously).
   * @throws Error when the calling thread does not hold `mutex`; RangeError when `timeoutMs` is negative or NaN.
   */
  wait(mutex: Mutex, timeoutMs = Infinity): boolean {
    const deadline = deadlineAfter(timeoutMs);
    const seq = A.load(this.words, SEQ, Site.ConditionSequence);
    mutex.unlock();
    const woken = waitUntil(this.words, SEQ, seq, deadline);
    if (woken) observer?.subscribe(this.ref);
    mutex.lock();
    return woken;
  }

  /** Wakes one waiting thread, if any. @returns how many were woken (0 or 1). */
  notify(): number {
    return this.signal(1);
  }

  /** Wakes every waiting thread. @returns how many were woken. */
  notifyAll(): number {
    return this.signal(Infinity);
  }

  private signal(count: number): number {
    observer?.publish(this.ref);
    A.add(this.words, SEQ, 1, Site.ConditionBump);
    return A.notify(this.words, SEQ, count, Site.ConditionWake);
  }
}
