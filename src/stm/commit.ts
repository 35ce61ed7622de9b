import { advanceClock, sampleClock } from './clock.js';
import { storeMasked } from './location.js';
import { distinct } from './log.js';
import { A, type AccessLog, observer } from './observer.js';
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
 * Under an observer (`observer.ts`, the live runtime) the attempt's logs go to `StmObserver.prepare` before step 3
 * (outside the critical section that the locked records make; then exactly one of `StmObserver.commit` and
 * `StmObserver.cancel` is called, so that locks the observer takes there come before the records in its lock order),
 * step 5 is made for read-only attempts too (skipped, as without an observer, only when no other commit advanced
 * the clock since `rv`: {@link unchanged}), over the distinct records read, and
 * runs again in the observer's critical section in which it reports the commit (`StmObserver.commit`), so
 * no commit to a location this one read comes between its validation and its report, and the order of the reports
 * is the serialization order: a commit that wrote such a location and was reported earlier holds its record or
 * has released it at a newer version, and fails this validation. The records read are not locked (a reader blocks
 * no writer).
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
  const locked = tx.writes.records();
  const writeLog = o === undefined ? undefined : tx.writes.log();
  // the observer's work on the logs, before the records are locked: it delays no other transaction (and from here
  // its commit or its cancel is called, once)
  if (writeLog !== undefined) o?.prepare?.(tx.readLog, writeLog);
  let prepared = writeLog !== undefined;
  const before: number[] = [];
  let wv = 0;
  try {
    for (let i = 0; i < locked.length; i++) before.push(lockRecord(words, locked[i]));
    if (entries.length > 0) wv = advanceClock(words);
    if (o === undefined) {
      if (tx.rv + 1 !== wv && !validate(tx, locked, before, tx.reads.length)) return fail(tx, locked, before);
    } else {
      pending.wv = wv;
      pending.locked = locked;
      pending.before = before;
      pending.reads = -1;
      // validated before the report too: most conflicts are found without the observer's critical section
      if (!validateObserved(tx)) return fail(tx, locked, before);
      pending.tx = tx;
      pending.valid = undefined;
      prepared = false;
      try {
        const reported = o.commit(tx.readLog, writeLog as AccessLog, validatePending);
        if (reported === false || pending.valid === false) return fail(tx, locked, before);
      } finally {
        pending.tx = undefined;
      }
    }
  } catch (e) {
    unlockAll(words, locked, before);
    throw e;
  } finally {
    if (prepared) o?.cancel?.();
  }
  const staged = tx.writes.staged;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    storeMasked(e.buffer, e.stripe, staged, e.slot, e.mask);
  }
  const released = unlockedAt(wv);
  for (let i = 0; i < locked.length; i++) releaseRecord(words, locked[i], released);
  o?.released?.();
  return true;
}

/**
 * TL2 §2.1 step 5 for `tx`, which holds the records `locked` (increasing; `before` their words before locking):
 * whether each record read (`tx.reads[0 … n − 1]`) is unlocked, or locked by `tx`, with a version ≤ `rv`. On failure `tx.conflict` and
 * `tx.conflictWord` name the record and the word seen.
 */
function validate(tx: Transaction, locked: number[], before: number[], n: number): boolean {
  const words = tx.words;
  const reads = tx.reads;
  for (let i = 0; i < n; i++) {
    const r = reads[i];
    let w = A.load(words, r);
    if (isLocked(w)) {
      const mine = indexOf(locked, r);
      if (mine < 0) return conflict(tx, r, w);
      w = before[mine];
    }
    if (versionOf(w) > tx.rv) return conflict(tx, r, w);
  }
  return true;
}

function conflict(tx: Transaction, record: number, word: number): false {
  tx.conflict = record;
  tx.conflictWord = word;
  return false;
}

/**
 * Whether no other commit advanced the clock since `tx` sampled its read version: the clock is still at `rv`, or at
 * `rv + 1` = `wv`, this attempt's own advance (TL2 §2.1 step 5 skips the validation when `rv + 1 = wv`). Then its
 * reads need no validation, also where an observer orders the commit (`StmObserver.commit`): a commit reported
 * before it advanced the clock before its report, so its write version is ≤ the clock now and, not being `wv`,
 * ≤ `rv`; it had locked the records it writes before `rv` was sampled, and each read of such a location (after that
 * sample) either saw the record locked and aborted, or came after its write-back. (The clock is read, not only `wv`
 * compared: a commit that advanced it after this one may still reach its report first.)
 */
function unchanged(tx: Transaction, wv: number): boolean {
  return sampleClock(tx.words) === (wv !== 0 ? tx.rv + 1 : tx.rv);
}

/**
 * The commit under an observer: what {@link validateObserved} validates (`reads`: how many records read are distinct
 * at the front of `tx.reads`, −1 until sorted), and the answer of {@link validatePending} once it has run.
 */
const pending: {
  tx: Transaction | undefined;
  wv: number;
  locked: number[];
  before: number[];
  reads: number;
  valid: boolean | undefined;
} = { tx: undefined, wv: 0, locked: [], before: [], reads: -1, valid: undefined };

/**
 * {@link validate} of `tx`, the commit of {@link pending}, unless {@link unchanged}; each distinct record read once
 * (a stripe holds several elements: the read set has repeats), sorted at the first validation that runs.
 */
function validateObserved(tx: Transaction): boolean {
  if (unchanged(tx, pending.wv)) return true;
  if (pending.reads < 0) pending.reads = distinct(tx.reads);
  return validate(tx, pending.locked, pending.before, pending.reads);
}

/** The `validate` given to the observer (one function, no closure per commit): {@link validateObserved} of {@link pending}. */
function validatePending(): boolean {
  const tx = pending.tx;
  if (tx === undefined) throw new Error('stm: validate called outside its commit');
  pending.valid = validateObserved(tx);
  return pending.valid;
}

/** The attempt failed its validation (`tx.conflict` set): its records go back to their versions before locking. */
function fail(tx: Transaction, locked: number[], before: number[]): false {
  unlockAll(tx.words, locked, before);
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
