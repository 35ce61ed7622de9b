/**
 * What `goldilocks check` runs (`./main.cts`): the adoption of the parser thread the executable started
 * (`./prestarted.ts`) and the command line's wiring (`./program.ts`), loaded when called. The build writes this
 * module, everything it imports (the check, the trace readers, the detectors, the reports) and the npm packages they
 * use as one CommonJS script over `./check-bundle.js` (`scripts/bundle.ts`), which `./main.cts` compiles with V8's
 * code cache (`../node/code-cache.ts`, issue 24 §3: loading and compiling the check's modules was about 219 M of a
 * 100-line check's 719 M instructions); the other commands, and a build of `tsc` alone, import it as an ES module.
 */
export { adoptPrestarted, dropPrestarted } from './prestarted.js';

/** The command line's wiring, loaded (and in the bundle, initialized) once the parser thread is started. */
export const loadProgram = (): Promise<typeof import('./program.js')> => import('./program.js');
