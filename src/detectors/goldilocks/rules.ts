/**
 * The lockset rules of Figure 5 of Goldilocks (Elmas, Qadeer, Tasiran, PLDI'07 §3, ../shared/seeds/000_*.txt), with
 * the ECMA-262 atomic write, as one storage-free kernel shared by both front ends: the offline detector's
 * Apply-Lockset-Rules (`./goldilocks.ts`, over {@link WorkingLockset} and the ring of `./sync-list.ts`) and the live
 * walk (`../../live/shadow/goldilocks.ts`, over a set of keys and the shared Int32 list). Each caller keeps its own
 * loop over its own storage and calls {@link applyRule} per cell, always with one lockset class per process (a check
 * process only ever passes a WorkingLockset, a live process only its live lockset), so the call sites inside the
 * kernel stay monomorphic; the kernel is small enough for V8 to inline into the loop.
 *
 * Rules 1 (data access) and 8 (alloc) act on a variable's own lockset and are the detectors' business; the rules of
 * synchronization cells are listed per kind in `../../model/sync.ts`.
 */
import { removes, SyncKind } from '../../model/sync.js';

/**
 * The kinds as module constants: a `case SyncKind.Acquire` would load the property at each test, and the bytecode of
 * {@link applyRule} would pass V8's inlining limit (460 bytes; `node --print-bytecode`).
 */
const {
  Acquire: ACQUIRE,
  Release: RELEASE,
  VolatileRead: VOLATILE_READ,
  AtomicRead: ATOMIC_READ,
  Receive: RECEIVE,
  Subscribe: SUBSCRIBE,
  VolatileWrite: VOLATILE_WRITE,
  Send: SEND,
  Publish: PUBLISH,
  AtomicWrite: ATOMIC_WRITE,
  AtomicRmw: ATOMIC_RMW,
  Fork: FORK,
  Join: JOIN,
  Commit: COMMIT,
} = SyncKind;

/**
 * A lockset as the rules see it: the elements of Figure 5 in separate namespaces — threads, locks, volatiles
 * (volatile variables, atomic locations, messages, sync-library volatiles), data variables (rule 9, commit).
 * Ids are the caller's (interned ids offline, keys live).
 */
export interface RuleLockset {
  hasThread(t: number): boolean;
  addThread(t: number): void;
  hasLock(l: number): boolean;
  addLock(l: number): void;
  hasVolatile(v: number): boolean;
  addVolatile(v: number): void;
  /** ECMA-262 atomic write by a thread outside the lockset. */
  removeVolatile(v: number): void;
  hasData(x: number): boolean;
  addData(x: number): void;
}

/**
 * Applies the rule of one cell of the synchronization event list to `ls` (Figure 5; the rule of each kind is
 * documented in `../../model/sync.ts`).
 * @param kind a {@link SyncKind}; an unknown kind changes nothing.
 * @param u the cell's thread.
 * @param y its target: lock, volatile or atomic location, message, or thread (fork, join).
 * @param set R ∪ W of a commit cell (data variable ids), else unused.
 */
export function applyRule<L extends RuleLockset>(
  ls: L,
  kind: number,
  u: number,
  y: number,
  set: Int32Array | null,
): void {
  switch (kind) {
    case ACQUIRE: // rule 4
      if (ls.hasLock(y)) ls.addThread(u);
      return;
    case RELEASE: // rule 5
      if (ls.hasThread(u)) ls.addLock(y);
      return;
    case VOLATILE_READ: // rule 2
    case ATOMIC_READ:
    case RECEIVE:
    case SUBSCRIBE:
      if (ls.hasVolatile(y)) ls.addThread(u);
      return;
    case VOLATILE_WRITE: // rule 3
    case SEND:
    case PUBLISH:
      if (ls.hasThread(u)) ls.addVolatile(y);
      return;
    case ATOMIC_WRITE: // rule 3′: y now carries only this write's happens-before
      if (ls.hasThread(u)) ls.addVolatile(y);
      else ls.removeVolatile(y);
      return;
    case ATOMIC_RMW: // a read, then a write
      if (ls.hasVolatile(y) || ls.hasThread(u)) {
        ls.addThread(u);
        ls.addVolatile(y);
      } else ls.removeVolatile(y);
      return;
    case FORK: // rule 6
      if (ls.hasThread(u)) ls.addThread(y);
      return;
    case JOIN: // rule 7
      if (ls.hasThread(y)) ls.addThread(u);
      return;
    case COMMIT:
      applyCommit(ls, u, set as Int32Array, 0, (set as Int32Array).length);
  }
}

/**
 * Rule 9, commit(u, R, W): add u if LS ∩ (R ∪ W) ≠ ∅; then add R ∪ W if u ∈ LS. R ∪ W is `set[from … to − 1]`
 * (the live list keeps it in the shadow heap, `../../live/shadow/goldilocks.ts`).
 */
export function applyCommit<L extends RuleLockset>(
  ls: L,
  u: number,
  set: Int32Array,
  from: number,
  to: number,
): void {
  if (!ls.hasThread(u)) {
    for (let j = from; j < to; j++) {
      if (ls.hasData(set[j])) {
        ls.addThread(u);
        break;
      }
    }
  }
  if (ls.hasThread(u)) for (let j = from; j < to; j++) ls.addData(set[j]);
}

/**
 * Direct ownership transfer (§5.1; CACM §4.2): does a walk deciding whether `owner`'s access happens-before
 * `target`'s apply the cell of thread `u` of kind `kind`? Only the two threads' cells, and every rule that may
 * remove (atomic writes, whoever wrote). Skipping only rules that add keeps the partial lockset a subset of the full
 * one — the rules are monotone — so the partial walk only ever proves happens-before (sound, incomplete).
 */
export const appliesInDirectTransfer = (kind: number, u: number, target: number, owner: number): boolean =>
  u === target || u === owner || removes(kind);

/**
 * Direct ownership transfer is tried only when the previous access is at most this many cells back. It scans
 * the same cells as the full walk, only applying fewer: over long distances it cannot be cheaper, and where
 * happens-before goes through a third thread (barriers) it runs to the end before the full walk starts.
 */
export const DIRECT_TRANSFER_MAX_DISTANCE = 256;
