/**
 * The values of `goldilocks run`'s options as the live runtime stores them in its shared settings
 * (`./memory/state.ts` `SharedSettings`, by index in these lists). Constants only and no imports: the CLI offers
 * them without loading the runtime, so that `goldilocks check`, `convert` and `--help` start fast (issue 21 §4).
 */

/** `--on-race` (`GOLDILOCKS_ON_RACE`) modes, in the order stored in the shared settings. */
export const ON_RACE = ['throw', 'report', 'abort'] as const;
/** Exit code of `--on-race=abort` (ThreadSanitizer's `exitcode` default). */
export const EXIT_ABORT = 66;

/** Detectors of `goldilocks run --detector`, in the order stored in the shared settings; all but eraser are precise. */
export const LIVE_DETECTORS = ['goldilocks', 'fasttrack', 'eraser'] as const;
export type LiveDetector = (typeof LIVE_DETECTORS)[number];
/** Does detector `d` (index in {@link LIVE_DETECTORS}) report only real races: all but eraser. */
export const isPrecise = (d: number): boolean => LIVE_DETECTORS[d] !== 'eraser';

/**
 * `--jumble` heuristics of adversarial memory (Flanagan & Freund, PLDI'10 §5.1): Sequentially-Consistent, Oldest,
 * Oldest-But-Different, Random, Random-But-Different (`../jumble/heuristics.ts`, which takes them from here).
 */
export const JUMBLE_HEURISTICS = ['sc', 'oldest', 'obd', 'random', 'rbd'] as const;

/**
 * The shadow heap's size (`../memory/state.ts`), `goldilocks run --shadow-limit` (`GOLDILOCKS_SHADOW_LIMIT`) in MiB:
 * by default SHADOW_LIMIT_DEFAULT, at most SHADOW_LIMIT_MAX, where Int32 heap indices end (2^31 words of 4 bytes:
 * the heap's records link each other by Int32 index, and the word tables' page arithmetic is 32-bit). Only the pages
 * used take memory.
 */
export const SHADOW_LIMIT_DEFAULT = 4096;
export const SHADOW_LIMIT_MAX = 8191;
