import { advanceClock } from './clock.js';
import { storeMasked } from './location.js';
import { isLocked, lockRecord, releaseRecord, unlockedAt, versionOf } from './orecs.js';
import type { Transaction } from './transaction.js';

/**
 * Commits one attempt (TL2, Dice, Shalev, Shavit, *Transactional Locking II*, DISC 2006, §2.1 steps 3–6):
 *
 * 3. lock the write set's ownership records, in increasing record order (waiting while another commit holds one:
 *    every commit locks in the same order, so there is no deadlock);
 * 4. advance the global version clock, taking the new value as the write version `wv`;
 * 5. validate the read set: each record read is unlocked (or locked by this commit, and then its version before
 *    locking counts) with a version ≤ `rv`; skipped when `rv + 1 = wv` (no commit came in between, §2.1);
 * 6. write the redo log back and release each record at version `wv`.
 *
 * A read-only attempt commits with no step at all (§2.2: its reads were each validated against `rv`).
 *
 * @returns true when committed; false when the validation failed (the records are released at their old
 *   versions, nothing was written; `tx.conflict` names the record).
 * @throws RangeError when the version clock is exhausted (nothing was written).
 */
export function commit(tx: Transaction): boolean {
  const entries = tx.writes.entries;
  if (entries.length === 0) return true;
  const words = tx.words;
  const locked = tx.writes.records();
  const before = locked.map((r) => lockRecord(words, r));
  let wv: number;
  try {
    wv = advanceClock(words);
  } catch (e) {
    unlockAll(words, locked, before);
    throw e;
  }
  if (tx.rv + 1 !== wv) {
    for (const r of tx.reads) {
      let w = Atomics.load(words, r);
      if (isLocked(w)) {
        const mine = indexOf(locked, r);
        if (mine < 0) return fail(tx, locked, before, r, w);
        w = before[mine];
      }
      if (versionOf(w) > tx.rv) return fail(tx, locked, before, r, w);
    }
  }
  for (const e of entries) storeMasked(e.buffer, e.stripe, e);
  const released = unlockedAt(wv);
  for (const r of locked) releaseRecord(words, r, released);
  return true;
}

function fail(tx: Transaction, locked: number[], before: number[], record: number, word: number): false {
  unlockAll(tx.words, locked, before);
  tx.conflict = record;
  tx.conflictWord = word;
  return false;
}

function unlockAll(words: Int32Array, locked: number[], before: number[]): void {
  for (let i = 0; i < locked.length; i++) releaseRecord(words, locked[i], before[i]);
}

/** Index of `r` in the increasing array `rs`, or −1. */
function indexOf(rs: number[], r: number): number {
  let lo = 0;
  let hi = rs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (rs[mid] === r) return mid;
    if (rs[mid] < r) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
