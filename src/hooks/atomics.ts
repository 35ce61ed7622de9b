/**
 * The dispatch of rewritten `Atomics` calls (`../instrument/atomics.ts`): {@link Hooks.atomics}, which calls the
 * original the runtime replaced directly where the first argument is not a view over shared memory, and otherwise,
 * like {@link Hooks.atomicsRest}, the current `Atomics` function with the call's site pending. Hot: called at every
 * such call.
 */

import type { Hooks, Runtime, SiteFunction } from './contract.js';
import { ATOMIC_OPS } from './names.js';
import { AtomicsObject, callSited } from './thread.js';
import { notSharedCache, shared } from './views.js';

/**
 * {@link Hooks.atomics} for a runtime's {@link Runtime.originals}: per name, a function of fixed parameters (so that
 * the call on memory that is not shared allocates no argument array) that calls the original where the current
 * `Atomics` function is the runtime's replacement (as it was at this call) and its first argument is not a view over
 * shared memory, else goes sited with the arguments it was given (`arguments.length`).
 */
export function atomicsHooks(originals: NonNullable<Runtime['originals']>): Hooks['atomics'] {
  const notShared = notSharedCache(shared);
  let lastShared: unknown; // the last first argument found over shared memory (a view never changes its buffer)
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
            if (call !== undefined && f === replaced && ta !== lastShared) {
              if (notShared(ta)) return call(ta, a, b, c);
              lastShared = ta;
            }
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
