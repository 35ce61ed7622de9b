/**
 * The data-race predicate of the ECMA-262 memory model (ECMA-262 §29 "Memory Model", §29.7 "Races" and "Data
 * Races"), less its happens-before part, which the detectors decide: two shared-memory events race when their
 * ranges overlap, at least one writes, and neither happens-before the other; a race is a data race unless both are
 * SeqCst atomic events with equal ranges — atomic accesses of overlapping ranges of different size do race
 * (mixed-size). Used by the offline access check (`./goldilocks/goldilocks.ts`) and the live one
 * (`../live/shadow/goldilocks.ts`).
 */

/**
 * Must two accesses be checked for happens-before (would they form a data race if unordered)?
 * @param overlap their byte ranges share a byte.
 * @param eitherWrites at least one of them writes.
 * @param bothAtomic both are SeqCst atomic accesses (`Atomics.*`).
 * @param equalRanges their ranges are equal (same start and size).
 */
export const conflicting = (
  overlap: boolean,
  eitherWrites: boolean,
  bothAtomic: boolean,
  equalRanges: boolean,
): boolean => overlap && eitherWrites && !(bothAtomic && equalRanges);
