/**
 * This thread's hooks object ({@link ThreadHooks}: the site table, the plain and shared paths of an access, the
 * sited call) and the runtime behind it, the {@link passthrough} runtime until `installRuntime` (`./install.ts`)
 * sets another.
 */

import type { Hooks, Runtime, SiteFunction, ThreadHooks } from './contract.js';
import { ATOMIC_OPS } from './names.js';
import {
  declared,
  fixedLength,
  isTypedArrayConstructor,
  isView,
  peek,
  pure,
  row,
  shared,
  typedArray,
} from './views.js';

/** The runtime used until another is installed: plain reads and writes. */
export const passthrough: Runtime = {
  get: (o, k) => (o as unknown as Record<PropertyKey, unknown>)[k as PropertyKey],
  set: (o, k, v) => {
    (o as unknown as Record<PropertyKey, unknown>)[k as PropertyKey] = v;
    return v;
  },
};

let runtime: Runtime = passthrough;

/** The runtime behind this thread's hooks. */
export const currentRuntime = (): Runtime => runtime;

/** Makes `rt` the runtime behind this thread's hooks (see `installRuntime`, `./install.ts`). */
export function setRuntime(rt: Runtime): void {
  runtime = rt;
}

const uncurriedCall = Function.prototype.call.bind(Function.prototype.call) as Hooks['call'];

// the rewritten call running now: its module's site function and site index (resolved to an id only when asked),
// and the function it called; one per thread, as the hooks are
let pendingM: SiteFunction | undefined;
let pendingI = -1;
let pendingCallee: unknown;

/** Calls `f` with `this` = `o` and `args`, site `i` of module `m` pending meanwhile (see {@link Hooks.sited}). */
export function callSited(
  m: SiteFunction,
  i: number,
  text: string,
  o: unknown,
  f: unknown,
  args: unknown[],
): unknown {
  if (typeof f !== 'function') throw new TypeError(`${text} is not a function`);
  return callSitedFixed(m, i, f, Reflect.apply as Fixed, f, o, args, undefined);
}

/** A function of at most four parameters. */
export type Fixed = (a: unknown, b: unknown, c: unknown, d: unknown) => unknown;

/**
 * `run(a, b, c, d)` with site `i` of module `m` pending meanwhile and `callee` as the function the rewritten call
 * called ({@link Hooks.pendingCallee}): {@link callSited}'s work without an argument array where the callee is known
 * to take fixed parameters (the runtime's replacement of an `Atomics` function, `./atomics.ts`).
 */
export function callSitedFixed(
  m: SiteFunction,
  i: number,
  callee: unknown,
  run: Fixed,
  a: unknown,
  b: unknown,
  c: unknown,
  d: unknown,
): unknown {
  // a rewritten call made while evaluating this one's arguments, or inside it, restores these
  const outerM = pendingM;
  const outerI = pendingI;
  const outerCallee = pendingCallee;
  pendingM = m;
  pendingI = i;
  pendingCallee = callee;
  try {
    return run(a, b, c, d);
  } finally {
    pendingM = outerM;
    pendingI = outerI;
    pendingCallee = outerCallee;
  }
}

export const AtomicsObject = Atomics as unknown as Record<string, unknown>;

const atomicsRest = Object.freeze(
  Object.fromEntries(
    ATOMIC_OPS.map((name) => [
      name,
      (m: SiteFunction, i: number, ...args: unknown[]): unknown =>
        callSited(m, i, `Atomics.${name}`, Atomics, AtomicsObject[name], args),
    ]),
  ),
) as Hooks['atomicsRest'];

let created: ThreadHooks | undefined;

/**
 * This thread's hooks, made on the first call, without publishing them: what a runtime is made with before
 * `installRuntime` (`./install.ts`) publishes them once (a global defined twice is no longer a constant to V8, and neither is
 * anything loaded through it).
 */
export function threadHooks(): ThreadHooks {
  created ??= createHooks();
  return created;
}

function createHooks(): ThreadHooks {
  const files: string[] = [];
  const table: number[] = []; // per site: index into files, line, column
  const sites = (file: string, locs: readonly number[]): number => {
    const base = table.length / 3;
    files.push(file);
    for (let j = 0; j < locs.length; j += 2) table.push(files.length - 1, locs[j], locs[j + 1]);
    return base;
  };
  function siteId(m: SiteFunction, i: number): number {
    let b = m.$b;
    if (b === undefined) {
      const [file, locs] = m();
      b = sites(file, locs);
      m.$b = b;
    }
    return b + i;
  }
  const plain = passthrough;
  const hooks: ThreadHooks = {
    atomicsRest,
    call: uncurriedCall,
    site: (m, i, text, o, f) => ({ m, i, text, o, f }),
    sited(...args) {
      return callSited(this.m, this.i, this.text, this.o, this.f, args);
    },
    pendingSite: () => (pendingM === undefined ? -1 : siteId(pendingM, pendingI)),
    pendingCallee: () => pendingCallee,
    isView,
    typedArray,
    shared,
    peek,
    row,
    pure,
    declared,
    fixedLength,
    sites,
    siteId,
    siteLocation(id) {
      if (!(id >= 0 && id < table.length / 3)) throw new RangeError(`goldilocks: unknown site ${id}`);
      return { file: files[table[3 * id]], line: table[3 * id + 1], column: table[3 * id + 2] };
    },
    get(o, k, m, i) {
      if (shared(o)) return runtime.get(o, k, siteId(m, i));
      return plain.get(o, k, 0);
    },
    set(o, k, v, m, i) {
      if (shared(o)) return runtime.set(o, k, v, siteId(m, i));
      return plain.set(o, k, v, 0);
    },
    copied(m, i, x, ctor) {
      if (shared(x) && (ctor === undefined || isTypedArrayConstructor(ctor)))
        runtime.readAll?.(x as ArrayBufferView, siteId(m, i));
      return x;
    },
    allocated(m, i, x) {
      runtime.allocated?.(x, siteId(m, i));
      return x;
    },
    elements(m, i, x, keys) {
      if (shared(x)) runtime.readElements?.(x as ArrayBufferView, siteId(m, i), keys);
      return x;
    },
    ref(o, k, m, i, strict) {
      return {
        set v(v: unknown) {
          if (o === null || o === undefined) throw new TypeError(`Cannot set properties of ${o}`);
          if (shared(o)) runtime.set(o as ArrayBufferView, k, v, siteId(m, i));
          else if (!Reflect.set(Object(o), k as PropertyKey, v, o) && strict)
            throw new TypeError(`Cannot assign to read only property '${String(k)}' of object`);
        },
      };
    },
  };
  return Object.freeze(hooks);
}
