/**
 * How the live runtime sees the synchronization library (issue 3 §3). The runtime calls `setSyncObserver` in
 * every thread (this module is instantiated once per thread); the primitives then report each synchronization
 * event to it. With no observer set, a report costs one `if`.
 *
 * Two vocabularies, matching the Goldilocks model (§3 of the PLDI'07 paper):
 * - a named lock: `acquire(ref)` right after the lock is taken, `release(ref)` right before it is given up
 *   (release → later acquire of the same ref is a happens-before edge; the runtime lists the lock as held);
 * - a volatile: `publish(ref)` (a volatile write) right before the atomic operation that lets another thread
 *   proceed, `subscribe(ref)` (a volatile read) right after the atomic operation that let this thread proceed
 *   (every publish → every later subscribe of the same ref is a happens-before edge).
 *
 * A report and its atomic operation are two steps, so a publish by a third thread landing between them gives an
 * extra edge; extra edges can hide a race, never invent one. Each primitive's docstring lists its edges.
 */
export interface SyncObserver {
  acquire(ref: SyncRef): void;
  release(ref: SyncRef): void;
  publish(ref: SyncRef): void;
  subscribe(ref: SyncRef): void;
  /** The atomic operations the primitives use on their words (default: the global `Atomics`); see {@link A}. */
  readonly atomics?: SyncAtomics;
  /**
   * Optional, the two as one step: `atomics.compareExchange(ta, index, expected, replacement, site)` of a lock's
   * word and, when it exchanged (returned `expected`: it took the lock), `acquire(ref)` right after it.
   * Without it a primitive calls the two one after the other.
   */
  acquireByCompareExchange?: LockCompareExchange;
  /**
   * Optional, the two as one step: `release(ref)`, then `atomics.compareExchange(ta, index, expected, replacement,
   * site)` of the lock's word (the operation that may give the lock up). Without it a primitive calls the two one
   * after the other.
   */
  releaseByCompareExchange?: LockCompareExchange;
}

/**
 * The `Atomics` operations (ECMA-262 §25.4) the primitives use on their own words, each call given its call site's
 * number (a `Site` of `./sites.ts`) as a last argument, which the global `Atomics` ignores. The live runtime's
 * (`SyncObserver.atomics`) are its checked operations, which name the access by that number: the library line,
 * found from a stack once per site and thread rather than once per operation (a capture costs microseconds;
 * bench:stm). Timeouts and counts are explicit (`Infinity` for none).
 */
export interface SyncAtomics {
  load(ta: Int32Array, index: number, site: number): number;
  store(ta: Int32Array, index: number, value: number, site: number): number;
  add(ta: Int32Array, index: number, value: number, site: number): number;
  sub(ta: Int32Array, index: number, value: number, site: number): number;
  exchange(ta: Int32Array, index: number, value: number, site: number): number;
  compareExchange(ta: Int32Array, index: number, expected: number, replacement: number, site: number): number;
  wait(
    ta: Int32Array,
    index: number,
    value: number,
    timeout: number,
    site: number,
  ): 'ok' | 'not-equal' | 'timed-out';
  notify(ta: Int32Array, index: number, count: number, site: number): number;
}

/**
 * A compare-exchange of element `index` of `ta` (a word of lock `ref`) at call site `site` with the report of
 * `ref`'s acquire or release (`SyncObserver.acquireByCompareExchange`, `releaseByCompareExchange`).
 * @returns the element's old value, as `Atomics.compareExchange`.
 */
export type LockCompareExchange = (
  ref: SyncRef,
  ta: Int32Array,
  index: number,
  expected: number,
  replacement: number,
  site: number,
) => number;

/** What kind of primitive a ref belongs to. */
export type SyncKind = 'mutex' | 'rwlock' | 'semaphore' | 'barrier' | 'condition';

/**
 * Identity of a reported lock or volatile: the same `(buffer, byteOffset)` in every thread (the objects differ
 * per thread; the buffer is the same `SharedArrayBuffer`). `name` is for reports.
 */
export interface SyncRef {
  buffer: SharedArrayBuffer;
  byteOffset: number;
  name: string;
  kind: SyncKind;
}

/** The observer of this thread, read by the primitives (an ES live binding; assign through `setSyncObserver`). */
export let observer: SyncObserver | undefined;

/** The atomic operations of this thread's primitives: the observer's, or the global `Atomics` (an ES live binding). */
export let A: SyncAtomics = Atomics as unknown as SyncAtomics;

/** Sets (or with `undefined`, removes) the observer of the calling thread. */
export function setSyncObserver(o: SyncObserver | undefined): void {
  observer = o;
  A = o?.atomics ?? (Atomics as unknown as SyncAtomics);
}
