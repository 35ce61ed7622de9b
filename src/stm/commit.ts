import { advanceClock } from './clock.js';
import { storeMasked } from './location.js';
import { A, observer } from './observer.js';
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
 * Under an observer (`observer.ts`, the live runtime) the read set's records are locked in step 3 too, read-only
 * attempts included, and the observer is told of the commit between steps 5 and 6: no commit to a location this
 * one read can come between its validation and its report, so the order of the reports is the serialization order
 * (without the locks a read-only transaction serialized before a writer could be reported after it).
 *
 * @returns true when committed; false when the validation failed (the records are released at their old
 *   versions, nothing was written; `tx.conflict` names the record).
 * @throws RangeError when the version clock is exhausted; what the observer throws (nothing was written).
 */
export function commit(tx: Transaction): boolean {
  const entries = tx.writes.entries;
  const o = observer;
  if (entries.length === 0 && (o === undefined || tx.reads.length === 0)) return true;
  const words = tx.words;
  const written = tx.writes.records();
  const locked = o === undefined ? written : tx.writes.records(tx.reads);
  const before: number[] = [];
  for (let i = 0; i < locked.length; i++) before.push(lockRecord(words, locked[i]));
  let wv = 0;
  try {
    if (entries.length > 0) wv = advanceClock(words);
    if (tx.rv + 1 !== wv) {
      for (const r of tx.reads) {
        let w = A.load(words, r);
        if (isLocked(w)) {
          const mine = indexOf(locked, r);
          if (mine < 0) return fail(tx, locked, before, r, w);
          w = before[mine];
        }
        if (versionOf(w) > tx.rv) return fail(tx, locked, before, r, w);
      }
    }
    o?.commit(tx.readLog, tx.writes.log());
  } catch (e) {
    unlockAll(words, locked, before);
    throw e;
  }
  const staged = tx.writes.staged;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    storeMasked(e.buffer, e.stripe, staged, e.slot, e.mask);
  }
  const released = unlockedAt(wv);
  for (let i = 0; i < locked.length; i++)
    releaseRecord(
      words,
      locked[i],
      locked === written || indexOf(written, locked[i]) >= 0 ? released : before[i],
    );
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
