import { ORECS, ORECS_LOG2 } from './layout.js';
import { A } from './observer.js';
import { MAX_WAIT_MS, waitWhile, wake } from './wait.js';

/**
 * The ownership-record table of TL2 (Dice, Shalev, Shavit, *Transactional Locking II*, DISC 2006, §2: versioned
 * write-locks, in the per-stripe variant "PS" where a location's lock is found by hashing its address).
 *
 * A record is one Int32 word: `version × 2 + locked` (`version` the write version of the last commit that wrote
 * a location of the stripe, `locked` set while a committing transaction holds it). A stripe is an aligned 8-byte
 * word of one buffer, so every element (at most 8 bytes, naturally aligned) lies in one stripe. Several stripes
 * share a record (a hash collision): a false conflict costs a retry, never correctness, since one location always
 * maps to the same record.
 */

/** Whether a record word is locked. */
export function isLocked(word: number): boolean {
  return (word & 1) !== 0;
}

/** The version in a record word. */
export function versionOf(word: number): number {
  return word >>> 1;
}

/** The record word of an unlocked record at `version`. */
export function unlockedAt(version: number): number {
  return version * 2;
}

/** The record count minus one, from the header. */
export function recordMask(words: Int32Array): number {
  return 2 ** words[ORECS_LOG2] - 1;
}

/**
 * Index in `words` of the record of the stripe holding `byteIndex` of a buffer of size key `key`
 * (`location.ts`'s `sizeKey`): consecutive stripes of a buffer take consecutive records (no collision within
 * `8 × records` bytes), buffers of other sizes start elsewhere (Fibonacci hashing of the key).
 */
export function recordOf(mask: number, key: number, byteIndex: number): number {
  return ORECS + ((Math.floor(byteIndex / 8) + Math.imul(key, 0x9e3779b1)) & mask);
}

/**
 * Locks record `i` for a commit, waiting while another commit holds it (TL2 §2.1 step 3). Callers lock their
 * records in increasing index order, so waits form no cycle: no deadlock.
 * @returns the record word before locking (its version is restored on abort).
 */
export function lockRecord(words: Int32Array, i: number): number {
  for (;;) {
    const w = A.load(words, i);
    if (!isLocked(w)) {
      if (A.compareExchange(words, i, w, w | 1) === w) return w;
    } else waitWhile(words, i, w, MAX_WAIT_MS);
  }
}

/** Stores `word` (unlocked) into record `i` and wakes its waiters (TL2 §2.1 step 6, and abort). */
export function releaseRecord(words: Int32Array, i: number, word: number): void {
  A.store(words, i, word);
  wake(words, i);
}
