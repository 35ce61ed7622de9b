/**
 * The dispatch of rewritten `Atomics` calls (`../instrument/atomics.ts`): {@link Hooks.atomics}, which calls the
 * original the runtime replaced directly where the first argument is not a view over shared memory, and otherwise,
 * like {@link Hooks.atomicsRest}, the current `Atomics` function with the call's site pending. Hot: called at every
 * such call.
 */

import type { Hooks, Runtime, SiteFunction } from './contract.js';
import { ATOMIC_OPS } from './names.js';
import { AtomicsObject, callSited, callSitedFixed, type Fixed } from './thread.js';
import { notSharedCache, shared } from './views.js';

/**
 * {@link Hooks.atomics} for a runtime's {@link Runtime.originals}: per name, a function of fixed parameters (so that
 * the call on memory that is not shared allocates no argument array) that calls the original where the current
 * `Atomics` function is the runtime's replacement (as it was at this call) and its first argument is not a view over
 * shared memory, calls that replacement with the site pending and four arguments where it is over shared memory
 * (`callSitedFixed`: no argument array), else (the program replaced the `Atomics` function) goes sited with the
 * arguments it was given (`arguments.length`).
 */
export function atomicsHooks(originals: NonNullable<Runtime['originals']>): Hooks['atomics'] {
  const notShared = notSharedCache(shared);
  return Object.freeze(
    Object.fromEntries(
      ATOMIC_OPS.map((name) => {
        const text = `Atomics.${name}`;
        const replaced = AtomicsObject[name];
        const call = originals.get(replaced)?.original as ((...args: unknown[]) => unknown) | undefined;
        return [
          name,
          function (
            m: SiteFunction,
            i: number,
            ta?: unknown,
            a?: unknown,
            b?: unknown,
            c?: unknown,
          ): unknown {
            const f = AtomicsObject[name];
            if (call !== undefined && f === replaced)
              // the replacement takes fixed parameters (`../live/intercept/atomics.ts`): no argument array
              return notShared(ta) ? call(ta, a, b, c) : callSitedFixed(m, i, f, f as Fixed, ta, a, b, c);
            // biome-ignore lint/complexity/noArguments: the count alone; a rest parameter allocates on every call
            const n = arguments.length;
            const args =
              n === 6 ? [ta, a, b, c] : n === 5 ? [ta, a, b] : n === 4 ? [ta, a] : n === 3 ? [ta] : [];
            return callSited(m, i, text, Atomics, f, args);
          },
        ];
      }),
    ),
  ) as Hooks['atomics'];
}
