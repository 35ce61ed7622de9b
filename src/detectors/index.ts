/**
 * Creates an offline detector by name, synchronously: all five detectors are linked (`checkText`, the library).
 * `goldilocks check` loads only the detectors it runs, through `./load.ts` (issue 21 §4).
 */
import type { Detector, DetectorContext } from './detector.js';
import * as eager from './eager/eager.js';
import * as eraser from './eraser/eraser.js';
import * as goldilocks from './goldilocks/goldilocks.js';
import { constructDetector, type DetectorModules, type DetectorOptions } from './load.js';
import * as djit from './vectorclock/djit.js';
import * as fasttrack from './vectorclock/fasttrack.js';

const ALL: DetectorModules = { goldilocks, eager, djit, fasttrack, eraser };

/** Creates a detector by name. @throws Error for an unknown name. */
export function createDetector(name: string, ctx: DetectorContext, options: DetectorOptions = {}): Detector {
  return constructDetector(name, ALL, ctx, options);
}
