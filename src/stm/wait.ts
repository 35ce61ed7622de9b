import { IDLE, WAITERS } from './layout.js';
import { A } from './observer.js';

/**
 * Blocking waits of the STM: `Atomics.wait` with a timeout (ECMA-262 §25.4.12), never an unbounded busy loop.
 *
 * Node lets every thread, the main thread included, suspend in `Atomics.wait`; the waits here are short (at most
 * `MAX_WAIT_MS`) and end early when the awaited word changes and is notified. Where the agent cannot suspend
 * (`Atomics.wait` throws a TypeError, as on a browser's main thread) the wait becomes a spin on `Atomics.load`
 * bounded by the same timeout. `atomic` is synchronous, so the event loop cannot run during a wait in any case:
 * the bound keeps each pause short.
 */

/** The longest single wait, in milliseconds. */
export const MAX_WAIT_MS = 2;

let canSuspend = true;

/**
 * Waits at most `ms` milliseconds while `words[index]` holds `value`; counted in `WAITERS` so that releases
 * notify only when someone may be waiting.
 */
export function waitWhile(words: Int32Array, index: number, value: number, ms: number): void {
  A.add(words, WAITERS, 1);
  try {
    if (canSuspend) {
      try {
        A.wait(words, index, value, ms);
        return;
      } catch (e) {
        if (!(e instanceof TypeError)) throw e;
        canSuspend = false;
      }
    }
    const deadline = performance.now() + ms;
    while (A.load(words, index) === value && performance.now() < deadline);
  } finally {
    A.sub(words, WAITERS, 1);
  }
}

/** Wakes the threads waiting on `words[index]`, if any thread waits at all. */
export function wake(words: Int32Array, index: number): void {
  if (A.load(words, WAITERS) !== 0) A.notify(words, index);
}

/**
 * Randomized exponential backoff before retry `attempt` (1, 2, …) of a transaction that lost a conflict on a
 * version (no lock to wait for): none for the first 3 retries, then a sleep of up to `2^(attempt − 3) × 10 µs`,
 * capped at `MAX_WAIT_MS`.
 */
export function backoff(words: Int32Array, attempt: number): void {
  if (attempt <= 3) return;
  const ms = Math.min(MAX_WAIT_MS, 0.01 * 2 ** Math.min(attempt - 3, 10)) * Math.random();
  waitWhile(words, IDLE, 0, ms);
}
