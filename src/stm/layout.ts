/**
 * The STM's shared memory: one `SharedArrayBuffer` of Int32 words, a header then the ownership-record table
 * (Dice, Shalev, Shavit, *Transactional Locking II*, DISC 2006, §2: "a shared global version-clock variable" and
 * "a special versioned write-lock associated with every transacted memory location", here one per stripe).
 *
 * | word | holds |
 * |---|---|
 * | `MAGIC` | `0x53544d31` ("STM1"), to recognise a handle's memory |
 * | `ID_HI`, `ID_LO` | a random 53-bit id, the same in every thread (nested `atomic` flattens by it) |
 * | `CLOCK` | the global version clock (`clock.ts`) |
 * | `WAITERS` | threads blocked in `Atomics.wait` on an ownership record: committers notify only when non-zero |
 * | `IDLE` | a word nobody notifies, for timed backoff sleeps |
 * | `ORECS_LOG2` | log2 of the number of ownership records |
 * | `ORECS …` | the ownership records (`orecs.ts`), from word 16 (the header has a 64-byte line of its own) |
 */

import { A } from './observer.js';

export const MAGIC = 0;
export const ID_HI = 1;
export const ID_LO = 2;
export const CLOCK = 3;
export const WAITERS = 4;
export const IDLE = 5;
export const ORECS_LOG2 = 6;
/** First word of the ownership-record table. */
export const ORECS = 16;

/** The header's magic value. */
export const STM_MAGIC = 0x53544d31;

/** Bounds of the table size: 2^4 … 2^24 records (64 B … 64 MiB). */
export const MIN_ORECS_LOG2 = 4;
export const MAX_ORECS_LOG2 = 24;

/**
 * New shared words for a table of `2^log2` ownership records, all free at version 0, with a fresh random id.
 */
export function createWords(log2: number): Int32Array {
  const words = new Int32Array(new SharedArrayBuffer((ORECS + 2 ** log2) * 4));
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  words[ID_HI] = hi & 0x1fffff;
  words[ID_LO] = lo | 0;
  words[ORECS_LOG2] = log2;
  A.store(words, MAGIC, STM_MAGIC);
  return words;
}

/** The id stored in `words`' header (a non-negative integer below 2^53). */
export function idOf(words: Int32Array): number {
  return words[ID_HI] * 2 ** 32 + (words[ID_LO] >>> 0);
}

/**
 * The STM words in `buffer`, checked: the magic, a table size in bounds and a length that matches it.
 * @returns undefined when the buffer does not hold an STM's words.
 */
export function attachWords(buffer: SharedArrayBuffer): Int32Array | undefined {
  if (buffer.byteLength < ORECS * 4 || buffer.byteLength % 4 !== 0) return undefined;
  const words = new Int32Array(buffer);
  const log2 = A.load(words, ORECS_LOG2);
  if (A.load(words, MAGIC) !== STM_MAGIC || log2 < MIN_ORECS_LOG2 || log2 > MAX_ORECS_LOG2) return undefined;
  return words.length === ORECS + 2 ** log2 ? words : undefined;
}
