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

/**
 * Index of each decision in {@link CHECK_DECISIONS}; NONE (negative): no short-circuit applies, a walk must decide.
 * A `const enum`: the compiled code holds the numbers, where a property of an object (or a module constant) costs a
 * load and checks at each use on the check's hot path. Hot paths test `d < 0` for NONE.
 */
// biome-ignore lint/suspicious/noConstEnum: inlined by tsc into dist/ (the point, see above); tsx keeps an object
export const enum Decided {
  Xact = 0,
  Owner = 1,
  Alock = 2,
  HbMemo = 3,
  DirectTransfer = 4,
  Lockset = 5,
  NONE = -1,
}

/**
 * The first short-circuits of §5.1, which need only the previous access's own record: both accesses transactional,
 * then the same owner. Pure. Both front ends try them first and {@link laterShortCircuits} only when they fail, so
 * that the common case (the same owner: 69% of the checks of `bench/generate.ts` traces) computes nothing else.
 * @param bothXact both accesses are transactional (§5.3; false where there are no transactions, or switched off).
 * @param owner the thread of the previous access (-1: owner short-circuit off).
 * @param t the current thread (≥ 0).
 * @returns `Decided.Xact`, `Decided.Owner`, or `Decided.NONE`.
 */
export function firstShortCircuits(bothXact: boolean, owner: number, t: number): number {
  if (bothXact) return Decided.Xact;
  if (owner === t) return Decided.Owner;
  return Decided.NONE;
}

/**
 * The remaining short-circuits, in order, after {@link firstShortCircuits} failed: the previous access's alock held
 * by the current thread (§5.1), then our happens-before memo. Pure; a short-circuit a caller has switched off is
 * given its neutral value (-1).
 * @param alockHolder the thread holding the previous access's alock, or -1 (none, or not known to be exclusive).
 * @param t the current thread (≥ 0).
 * @param origin the list position where the previous access's lockset started as {owner}.
 * @param proven happens-before memo: the latest position p such that {owner} at p reaches t, or -1.
 * @returns `Decided.Alock`, `Decided.HbMemo`, or `Decided.NONE` (a walk must decide).
 */
export function laterShortCircuits(alockHolder: number, t: number, origin: number, proven: number): number {
  if (alockHolder === t) return Decided.Alock;
  if (origin <= proven) return Decided.HbMemo;
  return Decided.NONE;
}
