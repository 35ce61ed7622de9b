/**
 * The short-circuits of Check-Happens-Before (Goldilocks, PLDI'07 §5.1; CACM §4.2) as one decision shared by the
 * offline detector (`./goldilocks.ts`) and the live check (`../../live/shadow/goldilocks.ts`), and the names of the
 * counters that say how each check was decided (paper §6, Table 1), used by `--stats` of both `goldilocks check`
 * and `goldilocks run`.
 */

/**
 * How a check was decided, in the order they are tried: both accesses transactional (§5.3); same owner thread
 * (program order); the previous access's alock held by the current thread; our happens-before memo; direct
 * ownership transfer (a walk over only the two threads' cells, `./rules.ts`); the full lockset walk. The counters of
 * each front end's statistics under these names sum to `checks`.
 */
export const CHECK_DECISIONS = [
  'shortCircuitXact',
  'shortCircuitOwner',
  'shortCircuitAlock',
  'hbMemo',
  'directTransfer',
  'lockset',
] as const;
export type CheckDecision = (typeof CHECK_DECISIONS)[number];

/** Index of each decision in {@link CHECK_DECISIONS}; NONE: no short-circuit applies, a walk must decide. */
export const Decided = {
  Xact: 0,
  Owner: 1,
  Alock: 2,
  HbMemo: 3,
  DirectTransfer: 4,
  Lockset: 5,
  NONE: -1,
} as const;

/**
 * The short-circuits of §5.1, in order, for the check of a previous access by `owner` against the current access of
 * thread `t`. Pure; each argument is cheap for the caller to compute (an array load), and a short-circuit a caller
 * has switched off is given its neutral value.
 * @param bothXact both accesses are transactional (§5.3; false where there are no transactions, or switched off).
 * @param owner the thread of the previous access (-1: owner short-circuit off).
 * @param t the current thread (≥ 0).
 * @param alockHolder the thread holding the previous access's alock, or -1 (none, or not known to be exclusive).
 * @param origin the list position where the previous access's lockset started as {owner}.
 * @param proven happens-before memo: the latest position p such that {owner} at p reaches t, or -1.
 * @returns the {@link Decided} index of the short-circuit that proves happens-before, or `Decided.NONE`.
 */
export function shortCircuit(
  bothXact: boolean,
  owner: number,
  t: number,
  alockHolder: number,
  origin: number,
  proven: number,
): number {
  if (bothXact) return Decided.Xact;
  if (owner === t) return Decided.Owner;
  if (alockHolder === t) return Decided.Alock;
  if (origin <= proven) return Decided.HbMemo;
  return Decided.NONE;
}
