/**
 * The offline detectors by name, each module loaded when a check first uses it (`import()`): `goldilocks check`
 * with the default detector loads goldilocks/ alone, not the four others (issue 21 §4; `npm run bench:start`).
 * `./index.ts` creates any of them synchronously, all linked, for `checkText` and the library.
 */
import type { Detector, DetectorContext } from './detector.js';
import type { GoldilocksOptions } from './goldilocks/goldilocks.js';
import { DETECTORS, type DetectorName } from './names.js';

export interface DetectorOptions {
  goldilocks?: GoldilocksOptions;
  /** Eraser's array sub-block size. */
  blockSize?: number;
}

/** Loads each detector's module (a module is evaluated once, at its first load). */
const MODULES = {
  goldilocks: () => import('./goldilocks/goldilocks.js'),
  eager: () => import('./eager/eager.js'),
  djit: () => import('./vectorclock/djit.js'),
  fasttrack: () => import('./vectorclock/fasttrack.js'),
  eraser: () => import('./eraser/eraser.js'),
} satisfies Record<DetectorName, () => Promise<object>>;

/** Each detector's module, as `import()` or `import * as` gives it. */
export type DetectorModules = { [N in DetectorName]: Awaited<ReturnType<(typeof MODULES)[N]>> };

/** Creates a detector by name. @throws Error for an unknown name. */
export type CreateDetector = (name: string, ctx: DetectorContext, options?: DetectorOptions) => Detector;

function unknownDetector(name: string): Error {
  return new Error(`unknown detector '${name}' (expected one of ${DETECTORS.join(', ')})`);
}

/**
 * Creates detector `name` from its module in `modules`.
 * @throws Error for an unknown name; TypeError when its module is not in `modules`.
 */
export function constructDetector(
  name: string,
  modules: Partial<DetectorModules>,
  ctx: DetectorContext,
  options: DetectorOptions = {},
): Detector {
  switch (name) {
    case 'goldilocks':
      return new modules.goldilocks!.GoldilocksDetector(ctx, options.goldilocks);
    case 'eager':
      return new modules.eager!.EagerDetector(ctx);
    case 'djit':
      return new modules.djit!.DjitDetector(ctx);
    case 'fasttrack':
      return new modules.fasttrack!.FastTrackDetector(ctx);
    case 'eraser':
      return new modules.eraser!.EraserDetector(ctx, { blockSize: options.blockSize });
    default:
      throw unknownDetector(name);
  }
}

/**
 * Loads the modules of the detectors `names` (and of no other).
 * @returns a {@link CreateDetector} of those detectors
 * @throws Error for an unknown name
 */
export async function loadDetectors(names: readonly string[]): Promise<CreateDetector> {
  const modules: Partial<Record<DetectorName, object>> = {};
  for (const name of names) {
    if (!(DETECTORS as readonly string[]).includes(name)) throw unknownDetector(name);
    modules[name as DetectorName] = await MODULES[name as DetectorName]();
  }
  return (name, ctx, options) => constructDetector(name, modules as Partial<DetectorModules>, ctx, options);
}
