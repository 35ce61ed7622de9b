import { A, observer, type SyncRef } from './observer.js';
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

/** Word 0: the lock state, bit fields below. */
const STATE = 0;
/** Word 1: readers `Atomics.wait` on it; +1 whenever readers may proceed. */
const READ_SEQ = 1;
/** Word 2: writers `Atomics.wait` on it; +1 whenever a writer may proceed. */
const WRITE_SEQ = 2;
/** Word 3: the writer's `threadId + 1`, 0 when not write-locked. */
const OWNER = 3;

/** State bits 0–15: read locks held. */
const READERS = 0xffff;
/** State bits 16–29: writers waiting (one unit). */
const WAITER = 0x10000;
const WAITERS = 0x3fff0000;
/** State bit 30: write-locked. */
const WRITER = 0x40000000;

/**
 * A writer-preferring read-write lock over four Int32 words of a `SharedArrayBuffer`: `[0]` state (bits 0–15 read
 * locks held, bits 16–29 writers waiting, bit 30 write-locked), `[1]` readers' wait sequence, `[2]` writers' wait
 * sequence, `[3]` the writer's `threadId + 1` (0 when not write-locked). State changes are
 * `Atomics.compareExchange`/`add`/`sub`; sleepers read their sequence word before checking the state and
 * `Atomics.wait` on it, so a wake-up between the check and the wait is not lost (ECMA-262 §25.4).
 *
 * Fairness: once a writer waits, new readers wait too, and a write unlock hands over to the next writer before
 * any reader; so readers cannot starve writers, but a continuous stream of writers starves readers. Among
 * writers there is no queue (like `Mutex`). Limits: 65535 read locks held at once (RangeError beyond), 16383
 * writers waiting at once.
 *
 * Not re-entrant: write-locking or read-locking while holding the write lock throws. Read locks are counted, not
 * owned: a thread holding a read lock that asks for the write lock, or for another read lock while a writer
 * waits, deadlocks.
 *
 * Observer (kind `'rwlock'`): the write lock is a named lock (`acquire`/`release` of `ref` at `byteOffset`,
 * name `<name>`); a write unlock `publish`es `<name>.writes` (at `byteOffset + 4`), which read locks `subscribe`;
 * a read unlock `publish`es `<name>.reads` (at `byteOffset + 8`), which write locks `subscribe`. So write unlock →
 * later read or write lock and read unlock → later write lock are happens-before edges; readers get none among
 * themselves.
 */
export class ReadWriteLock extends SyncPrimitive {
  /** Bytes of the region (four Int32 words). */
  static readonly BYTES = 16;
  private readonly writes: SyncRef;
  private readonly reads: SyncRef;

  /**
   * @param name for reports; default `rwlock-<threadId>-<n>`.
   * @param at where to put the words (initialized here to "free"); default a new SharedArrayBuffer.
   */
  constructor(name?: string, at?: Placement) {
    super('rwlock', 4, name, at);
    this.writes = this.refAt(READ_SEQ, `${this.name}.writes`);
    this.reads = this.refAt(WRITE_SEQ, `${this.name}.reads`);
  }

  /** The lock whose `handle` this is (made in this or another thread). */
  static from(handle: SyncHandle): ReadWriteLock {
    return new ReadWriteLock(handle.name, attach(handle));
  }

  /**
   * Blocks until the calling thread holds a read lock.
   * @throws Error when it holds the write lock; RangeError when 65535 read locks are held.
   */
  readLock(): void {
    this.tryReadLock(Infinity);
  }

  /**
   * Takes a read lock if one is granted within `timeoutMs` milliseconds (default 0: do not wait).
   * @returns whether a read lock was taken.
   * @throws as `readLock`; RangeError when `timeoutMs` is negative or NaN.
   */
  tryReadLock(timeoutMs = 0): boolean {
    const w = this.words;
    if (A.load(w, OWNER, Site.RwReadOwnerTest) === thisThread)
      throw new Error(`rwlock ${this.name}: read lock while holding the write lock`);
    const deadline = deadlineAfter(timeoutMs);
    for (;;) {
      const seq = A.load(w, READ_SEQ, Site.RwReadSequence);
      const s = A.load(w, STATE, Site.RwReadState);
      if ((s & (WRITER | WAITERS)) === 0) {
        if ((s & READERS) === READERS)
          throw new RangeError(`rwlock ${this.name}: more than 65535 read locks`);
        if (A.compareExchange(w, STATE, s, s + 1, Site.RwReadTake) === s) break;
      } else if (!waitUntil(w, READ_SEQ, seq, deadline)) {
        return false;
      }
    }
    observer?.subscribe(this.writes);
    return true;
  }

  /**
   * Gives up one read lock; the last reader out wakes a waiting writer.
   * @throws Error when no read lock is held (by any thread: read locks are not owned).
   */
  readUnlock(): void {
    const w = this.words;
    observer?.publish(this.reads);
    let s = A.load(w, STATE, Site.RwReadUnlockState);
    for (;;) {
      if ((s & READERS) === 0) throw new Error(`rwlock ${this.name}: read unlock without a read lock held`);
      const seen = A.compareExchange(w, STATE, s, s - 1, Site.RwReadRelease);
      if (seen === s) break;
      s = seen;
    }
    if (((s - 1) & READERS) === 0 && (s & WAITERS) !== 0) this.wake(WRITE_SEQ, 1);
  }

  /**
   * Blocks until the calling thread holds the write lock.
   * @throws Error when it already holds it.
   */
  writeLock(): void {
    this.tryWriteLock(Infinity);
  }

  /**
   * Takes the write lock if it is granted within `timeoutMs` milliseconds (default 0: do not wait).
   * @returns whether the write lock was taken.
   * @throws Error when the calling thread already holds it; RangeError when `timeoutMs` is negative or NaN.
   */
  tryWriteLock(timeoutMs = 0): boolean {
    const w = this.words;
    if (A.load(w, OWNER, Site.RwWriteOwnerTest) === thisThread)
      throw new Error(`rwlock ${this.name}: already write-locked by this thread (not re-entrant)`);
    const deadline = deadlineAfter(timeoutMs);
    if (A.compareExchange(w, STATE, 0, WRITER, Site.RwWriteTake) !== 0) {
      if (timeoutMs === 0) return false;
      A.add(w, STATE, WAITER, Site.RwWriteQueue);
      for (;;) {
        const seq = A.load(w, WRITE_SEQ, Site.RwWriteSequence);
        const s = A.load(w, STATE, Site.RwWriteState);
        if ((s & (WRITER | READERS)) === 0) {
          if (A.compareExchange(w, STATE, s, s - WAITER + WRITER, Site.RwWriteRetake) === s) break;
        } else if (!waitUntil(w, WRITE_SEQ, seq, deadline)) {
          // Gave up: if this was the last waiting writer and no writer holds the lock, readers may proceed.
          const left = A.sub(w, STATE, WAITER, Site.RwWriteGiveUp) - WAITER;
          if ((left & (WAITERS | WRITER)) === 0) this.wake(READ_SEQ, Infinity);
          return false;
        }
      }
    }
    A.store(w, OWNER, thisThread, Site.RwWriteOwn);
    observer?.acquire(this.ref);
    observer?.subscribe(this.reads);
    return true;
  }

  /**
   * Gives up the write lock; wakes the next waiting writer, or else all waiting readers.
   * @throws Error when the calling thread does not hold it.
   */
  writeUnlock(): void {
    const w = this.words;
    if (A.load(w, OWNER, Site.RwWriteHolderTest) !== thisThread)
      throw new Error(`rwlock ${this.name}: write unlock by a thread that does not hold it`);
    A.store(w, OWNER, 0, Site.RwWriteDisown);
    observer?.publish(this.writes);
    observer?.release(this.ref);
    const s = A.sub(w, STATE, WRITER, Site.RwWriteRelease) - WRITER;
    if ((s & WAITERS) !== 0) this.wake(WRITE_SEQ, 1);
    else this.wake(READ_SEQ, Infinity);
  }

  /** Bumps the sequence word `seq` and wakes up to `count` of its sleepers. */
  private wake(seq: number, count: number): void {
    A.add(this.words, seq, 1, Site.RwBump);
    A.notify(this.words, seq, count, Site.RwWake);
  }
}
