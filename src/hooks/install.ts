/**
 * Installing a runtime and publishing this thread's hooks at `globalThis.__goldilocks`, with the fields made from
 * the runtime: its fast paths and the dispatch of method and `Atomics` calls.
 */

import { atomicsHooks } from './atomics.js';
import { calleeTests } from './callee.js';
import type { Hooks, Runtime, ThreadHooks } from './contract.js';
import { HOOKS_GLOBAL } from './names.js';
import { currentRuntime, setRuntime, threadHooks } from './thread.js';
import { shared, typedIteration } from './views.js';

/** Without a fast path: shared views go to get/set, the others are cached at their site. */
const slow = (o: ArrayBufferView): unknown => shared(o) || o;
/** Without range checks: every access of the loop is checked on its own. */
const noSpan = (): boolean => false;
/** Without cover checks: every access of a covered loop is checked on its own. */
const noCover = (): number => 0;
/** Without a count of synchronization operations: a cell no value equals, so a covered loop's test always fails. */
const NO_SYNCS = Object.freeze({ n: Number.NaN });

/**
 * Publishes `hooks` with the current runtime's fast paths at `globalThis.__goldilocks`. A new frozen object per
 * runtime, so that `__goldilocks.r` is a constant the JIT can inline at every site (a global property that is
 * defined once and a frozen object's property are both constants to V8: register publishes once per thread); the
 * global is replaced, not mutated, when another runtime is installed.
 */
function publish(hooks: ThreadHooks): Hooks {
  const runtime = currentRuntime();
  const runtimeFields: Omit<Hooks, keyof ThreadHooks> = {
    r: runtime.r ?? slow,
    w: runtime.w ?? slow,
    span: runtime.span ?? noSpan,
    covered: runtime.covered ?? noCover,
    syncs: runtime.syncs ?? NO_SYNCS,
    ...calleeTests(runtime.sitedMethods ?? [], runtime.originals ?? new Map(), runtime.sitedLater),
    atomics: atomicsHooks(runtime.originals ?? new Map()),
    typedIteration: typedIteration(runtime.originals ?? new Map()),
  };
  // no key in common, so each property is stored once: V8 tracks a field's constness per shape, and an overridden
  // one is no longer a constant, nor anything loaded through it
  const published: Hooks = Object.freeze({ ...hooks, ...runtimeFields });
  Object.defineProperty(globalThis, HOOKS_GLOBAL, {
    value: published,
    writable: false,
    enumerable: false,
    configurable: true,
  });
  return published;
}

/**
 * Makes `rt` the runtime behind this thread's hooks (its `r` and `w` are called without a `this`) and publishes them
 * at `globalThis.__goldilocks`. Call before user code: accesses already made are not replayed.
 */
export function installRuntime(rt: Runtime): void {
  setRuntime(rt);
  publish(threadHooks());
}

/**
 * Installs this thread's hooks at `globalThis.__goldilocks` and returns them; a second call returns the installed
 * object.
 */
export function installHooks(): Hooks {
  const existing = (globalThis as Record<string, unknown>)[HOOKS_GLOBAL];
  if (existing) return existing as Hooks;
  return publish(threadHooks());
}
