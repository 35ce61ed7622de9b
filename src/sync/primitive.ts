import { threadId } from 'node:worker_threads';
import { A, type SyncKind, type SyncRef } from './observer.js';
import { Site } from './sites.js';

/**
 * Where a primitive's words live: `byteOffset` into a `SharedArrayBuffer`, a multiple of 4 (its words are an
 * `Int32Array` over `[byteOffset, byteOffset + BYTES)`).
 */
export interface Placement {
  buffer: SharedArrayBuffer;
  byteOffset: number;
}

/**
 * A primitive's identity, plain and structured-cloneable: post it to another worker and rebuild the primitive
 * there with `Mutex.from(handle)` (or the `from` of the same class).
 */
export interface SyncHandle extends Placement {
  name: string;
}

/** Placements made by `attach`: the constructor leaves their words as they are. */
const attached = new WeakSet<Placement>();

/** A placement over a live primitive's words, for `from`: constructing over it does not initialize them. */
export function attach(handle: SyncHandle): Placement {
  const at = { buffer: handle.buffer, byteOffset: handle.byteOffset };
  attached.add(at);
  return at;
}

/** Lock-owner id of the calling thread as stored in the shared words: `threadId + 1` (0 = no owner). */
export const thisThread = threadId + 1;

let unnamed = 0;

/**
 * What all five primitives share: a region of `size` Int32 words in a `SharedArrayBuffer`, a name, a handle to
 * send to other threads, and the `SyncRef` reported to the observer.
 *
 * Memory: `new X(…, name)` allocates a `SharedArrayBuffer` of exactly the region; `new X(…, name, at)` uses the
 * caller's `at` (and initializes the region there: do that once, before other threads use it); `X.from(handle)`
 * attaches to a primitive made elsewhere. All shared words are accessed with `Atomics` only (ECMA-262 §25.4), so
 * the primitives themselves never race.
 *
 * Blocking calls use `Atomics.wait`, which Node allows on the main thread too: there it blocks the event loop
 * (no timers, I/O or messages run until it returns).
 */
export abstract class SyncPrimitive {
  readonly buffer: SharedArrayBuffer;
  readonly byteOffset: number;
  readonly name: string;
  /** The region: index 0 is the word at `byteOffset`. */
  protected readonly words: Int32Array;
  /** The ref reported to the observer for this primitive. */
  protected readonly ref: SyncRef;

  /**
   * @param init sets the words of a new region (they are zero when it is called); not called for `from`.
   * @throws TypeError when `at.buffer` is not a SharedArrayBuffer; RangeError when `at.byteOffset` is not a
   *   multiple of 4 or the region does not fit in the buffer.
   */
  protected constructor(
    kind: SyncKind,
    size: number,
    name: string | undefined,
    at: Placement | undefined,
    init?: (words: Int32Array) => void,
  ) {
    const buffer = at?.buffer ?? new SharedArrayBuffer(size * 4);
    const byteOffset = at?.byteOffset ?? 0;
    if (!(buffer instanceof SharedArrayBuffer))
      throw new TypeError(`${kind}: buffer is not a SharedArrayBuffer`);
    if (
      !Number.isInteger(byteOffset) ||
      byteOffset < 0 ||
      byteOffset % 4 !== 0 ||
      byteOffset + size * 4 > buffer.byteLength
    ) {
      throw new RangeError(
        `${kind}: ${size * 4} bytes at byteOffset ${byteOffset} do not fit a ${buffer.byteLength}-byte buffer with 4-byte alignment`,
      );
    }
    this.buffer = buffer;
    this.byteOffset = byteOffset;
    this.name = name ?? `${kind}-${threadId}-${++unnamed}`;
    this.words = new Int32Array(buffer, byteOffset, size);
    this.ref = { buffer, byteOffset, name: this.name, kind };
    if (at === undefined || !attached.has(at)) {
      for (let i = 0; i < size; i++) A.store(this.words, i, 0, Site.Clear);
      init?.(this.words);
    }
  }

  /** `{ buffer, byteOffset, name }`: post it to another worker, rebuild with `from`. */
  get handle(): SyncHandle {
    return { buffer: this.buffer, byteOffset: this.byteOffset, name: this.name };
  }

  /** A ref for the region's word `index`, for primitives that report more than one lock or volatile. */
  protected refAt(index: number, name: string): SyncRef {
    return { ...this.ref, byteOffset: this.byteOffset + index * 4, name };
  }
}

/**
 * The `performance.now()` deadline of a timeout.
 * @param timeoutMs milliseconds, ≥ 0; `Infinity` for none.
 * @throws RangeError when `timeoutMs` is negative or NaN.
 */
export function deadlineAfter(timeoutMs: number): number {
  if (!(timeoutMs >= 0)) throw new RangeError(`timeout must be ≥ 0 ms, got ${timeoutMs}`);
  return timeoutMs === Infinity ? Infinity : performance.now() + timeoutMs;
}

/**
 * `Atomics.wait(words, index, value)` until `deadline` (from `deadlineAfter`).
 * @returns false when the deadline has passed (before or during the wait), true when woken or when the word
 *   no longer held `value`.
 */
export function waitUntil(words: Int32Array, index: number, value: number, deadline: number): boolean {
  const left = deadline - performance.now();
  return left > 0 && A.wait(words, index, value, left, Site.Wait) !== 'timed-out';
}

/** @throws RangeError unless `n` is an integer in `min … 2^31−1`. */
export function checkCount(what: string, n: number, min: number): void {
  if (!Number.isInteger(n) || n < min || n > 0x7fffffff)
    throw new RangeError(`${what} must be an integer ${min} … 2^31−1, got ${n}`);
}
