import type { Detector, DetectorContext } from './detector.js';
import { EagerDetector } from './eager/eager.js';
import { EraserDetector } from './eraser/eraser.js';
import { GoldilocksDetector, type GoldilocksOptions } from './goldilocks/goldilocks.js';
import { DETECTORS } from './names.js';
import { DjitDetector } from './vectorclock/djit.js';
import { FastTrackDetector } from './vectorclock/fasttrack.js';

export interface DetectorOptions {
  goldilocks?: GoldilocksOptions;
  /** Eraser's array sub-block size. */
  blockSize?: number;
}

/** Creates a detector by name. @throws Error for an unknown name. */
export function createDetector(name: string, ctx: DetectorContext, options: DetectorOptions = {}): Detector {
  switch (name) {
    case 'goldilocks':
      return new GoldilocksDetector(ctx, options.goldilocks);
    case 'eager':
      return new EagerDetector(ctx);
    case 'djit':
      return new DjitDetector(ctx);
    case 'fasttrack':
      return new FastTrackDetector(ctx);
    case 'eraser':
      return new EraserDetector(ctx, { blockSize: options.blockSize });
    default:
      throw new Error(`unknown detector '${name}' (expected one of ${DETECTORS.join(', ')})`);
  }
}
