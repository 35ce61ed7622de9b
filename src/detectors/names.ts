/**
 * The offline detectors' names, without their code: `goldilocks check --detector` offers them without loading the
 * detectors (issue 21 §4); `./index.ts` creates a detector by name.
 */

/** Detector names accepted by `--detector`. Precise: all but `eraser`. */
export const DETECTORS = ['goldilocks', 'eager', 'djit', 'fasttrack', 'eraser'] as const;
export type DetectorName = (typeof DETECTORS)[number];
