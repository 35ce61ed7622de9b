import { CLOCK } from './layout.js';
import { A } from './observer.js';

/**
 * The global version clock of TL2 (Dice, Shalev, Shavit, *Transactional Locking II*, DISC 2006, §2.1, the "GV1"
 * scheme of §3): a shared counter that a transaction samples when it starts (its read version `rv`) and that each
 * writing transaction advances once at commit, taking the new value as its write version `wv`.
 *
 * Versions live in 30 bits (an ownership record is `version × 2 + lock bit` in one Int32 word, `orecs.ts`), so
 * one STM allows `MAX_VERSION` writing commits (about 10^9); read-only transactions do not advance the clock.
 */
export const MAX_VERSION = 2 ** 30 - 1;

/** The read version `rv`: the clock now (TL2 §2.1 step 1). */
export function sampleClock(words: Int32Array): number {
  return A.load(words, CLOCK);
}

/**
 * Advances the clock and returns the write version `wv` (TL2 §2.1 step 4: "increment-and-fetch").
 * @throws RangeError when the clock is exhausted (`MAX_VERSION` writing commits).
 */
export function advanceClock(words: Int32Array): number {
  const wv = A.add(words, CLOCK, 1) + 1;
  if (wv > MAX_VERSION) {
    A.sub(words, CLOCK, 1);
    throw new RangeError(`stm: the version clock is exhausted (${MAX_VERSION} writing commits)`);
  }
  return wv;
}
