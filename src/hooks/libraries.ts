/**
 * How a library the program imports finds this thread's runtime (issue 24 §2, worker start-up): a runtime that
 * observes the library defines its link, a function under the library's key on `globalThis`, when it is installed
 * ({@link defineLink}); the library calls it when the program loads it in a thread ({@link linkLibrary}), handing
 * the runtime what it observes the library through (its observer setter, its sited methods). So no runtime loads a
 * library a program may never import (`goldilocks/stm`: its 10 modules took 5–10 ms of each worker's start, measured
 * in workers on a host at load 3, when the runtime loaded them), and a library loaded after any number of threads started, in any of them, through `import` or
 * `require`, is linked in the thread that loads it, once (a module is instantiated once per thread). Where no
 * runtime defined the link (plain node), the library runs as it is.
 *
 * The keys are registered symbols (`Symbol.for`), so that the library's copy of this module (the program loads
 * `dist/hooks/libraries.js`) and the runtime's (in the build's bundle, `scripts/bundle.ts`) agree on them.
 */

/** The key of `goldilocks/stm`'s link: called with its `StmLibrary` (`../stm/observer.ts`). */
export const STM_LINK: unique symbol = Symbol.for('goldilocks.link.stm');

type Links = Record<symbol, ((library: never) => void) | undefined>;

/** Defines this thread's link of the library of `key` (replacing one defined before): not enumerable. */
export function defineLink<L>(key: symbol, link: (library: L) => void): void {
  Object.defineProperty(globalThis, key, {
    value: link,
    writable: false,
    enumerable: false,
    configurable: true,
  });
}

/** Hands `library` to this thread's link of `key`, when a runtime defined one. @throws what the link throws. */
export function linkLibrary<L>(key: symbol, library: L): void {
  const link = (globalThis as unknown as Links)[key] as ((library: L) => void) | undefined;
  if (typeof link === 'function') link(library);
}
