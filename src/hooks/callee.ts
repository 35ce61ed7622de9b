/**
 * The dispatch of rewritten method calls: {@link Hooks.callee} and {@link Hooks.callee1}, which a rewritten call
 * `o.name(...)` (`../instrument/methods.ts`) asks which function to call. Hot: called at every such call, and shaped
 * (fixed comparisons with constants, short bodies) so that V8 inlines them at each call site and folds them where
 * the method is a constant.
 */

import type { Hooks, Runtime } from './contract.js';
import { OBSERVED_METHODS, TESTED_ARGUMENT, TYPED_ARRAYS } from './names.js';
import { bufferOf, isView, notSharedCache, SAB, sharedView, toStringTag, UNKNOWN } from './views.js';

/** How many {@link Runtime.sitedMethods} {@link Hooks.callee} compares with. */
export const MAX_SITED_METHODS = 4;

/** The prototypes of the built-in views: a call `view.name(...)` reaches `name` along one of their chains. */
const VIEW_PROTOTYPES = [
  ...TYPED_ARRAYS.map((name) => (globalThis[name] as { prototype: object }).prototype),
  Buffer.prototype,
  DataView.prototype,
] as Record<string, unknown>[];

/** No method is sited later: {@link calleeTests}' default. */
const NONE_LATER: NonNullable<Runtime['sitedLater']> = { names: [], methods: new Set() };

/**
 * {@link Hooks.callee} and {@link Hooks.callee1} for a runtime's {@link Runtime.sitedMethods},
 * {@link Runtime.originals} and {@link Runtime.sitedLater}, and the methods the built-in views reach now: a fixed
 * number of comparisons with constants, not a set lookup, so that V8 inlines them at each call site and folds them
 * where the method is a constant (bench:instrument, `get`/`set` methods); only the calls of a name of `later.names`
 * look their method up in `later.methods`, off that path. Where views reach more than two methods by one name, every
 * call of it on a view is sited.
 * @throws RangeError for more than {@link MAX_SITED_METHODS} methods.
 */
export function calleeTests(
  methods: readonly unknown[],
  originals: NonNullable<Runtime['originals']>,
  later: NonNullable<Runtime['sitedLater']> = NONE_LATER,
): Pick<Hooks, 'callee' | 'callee1' | 'direct'> {
  if (methods.length > MAX_SITED_METHODS)
    throw new RangeError(`goldilocks: at most ${MAX_SITED_METHODS} sited methods, not ${methods.length}`);
  const [a, b, c, d] = [...methods, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN];
  /**
   * `m`'s original for a call of name `k`: where the runtime gave one and `m` touches shared memory through the
   * argument such a call tests ({@link TESTED_ARGUMENT}) or through none; else null.
   */
  const originalAt = (m: unknown, k: number): unknown => {
    const entry = originals.get(m);
    return entry !== undefined && (entry.argument ?? TESTED_ARGUMENT[k]) === TESTED_ARGUMENT[k]
      ? entry.original
      : null;
  };
  // per name: the sited methods' originals, where the runtime gave one for a method that touches shared memory
  // through the argument a call of that name tests
  const [ao, bo, co, dO] = [a, b, c, d].map((m) => {
    const entry = originals.get(m);
    return TESTED_ARGUMENT.map((tested) => (entry?.argument === tested ? entry.original : null));
  });
  // per name, the views' methods, a TypedArray's (p) and a Buffer's (q), with their originals or null and whether
  // an argument counts; every method on a view where there are more (prototypes patched apart)
  const p: unknown[] = [];
  const q: unknown[] = [];
  const po: unknown[] = [];
  const qo: unknown[] = [];
  const pa: boolean[] = [];
  const qa: boolean[] = [];
  const any: boolean[] = [];
  // per name, whether its calls go past the comparisons (to pick): views reach more than two methods by it, or a
  // method of that name may be sited later
  const slow: boolean[] = [];
  const laterMethods = later.methods;
  for (const [k, name] of OBSERVED_METHODS.entries()) {
    const found = [...new Set(VIEW_PROTOTYPES.map((proto) => proto[name]))].filter(
      (f) => typeof f === 'function',
    );
    p.push(found[0] ?? UNKNOWN);
    q.push(found[1] ?? UNKNOWN);
    po.push(originalAt(found[0], k));
    qo.push(originalAt(found[1], k));
    pa.push(originals.get(found[0])?.argument !== undefined);
    qa.push(originals.get(found[1])?.argument !== undefined);
    any.push(found.length > 2);
    slow.push(found.length > 2 || later.names.includes(name));
  }
  // per name, the first view method when the runtime gave its original and it touches shared memory through its
  // receiver alone: on any receiver not over shared memory it does what its original does (Runtime.originals)
  const dp = p.map((f, k) => (po[k] !== null && !pa[k] ? f : UNKNOWN));
  const direct = po.map((original, k) => (dp[k] !== UNKNOWN ? original : undefined));
  for (const table of [ao, bo, co, dO, p, q, po, qo, pa, qa, any, slow, dp, direct]) Object.freeze(table);
  // a DataView's too: its get and set methods are views' methods here (`DATAVIEW_METHODS` of `./names.ts`)
  const notShared = notSharedCache(sharedView);
  /** Is `o` a TypedArray whose buffer is not a SharedArrayBuffer (the last two found so are kept)? */
  const plainTypedArray = notSharedCache(
    (o) => toStringTag.call(o) === undefined || bufferOf.call(o) instanceof SAB,
  );
  /** Whether `f` is a function to call as it is whatever the receiver: no view's method, no sited one. */
  const plainMethod = (f: unknown, k: number): boolean =>
    typeof f === 'function' &&
    f !== p[k] &&
    f !== q[k] &&
    slow[k] !== true &&
    f !== a &&
    f !== b &&
    f !== c &&
    f !== d;
  /**
   * The rest of {@link Hooks.callee}, for `f` a built-in view's method of this name: `f` on what is not a view, its
   * original on a view not over shared memory (with an argument `arg` that is not either, when it may touch shared
   * memory through it and `arg` is that argument: {@link TESTED_ARGUMENT}), else null; for a sited method, its
   * original when the runtime gave one and `arg` is the argument it may touch shared memory through and a
   * TypedArray not over shared memory, else null; for a method sited later (in `later.methods`) null; for another
   * `f` (not a function, or one of a name views reach more than two methods by or of a name of `later.names`) null,
   * but `f` of the last two kinds on what is not a view.
   */
  const pick = (o: unknown, f: unknown, k: number, arg: unknown, evaluated: boolean): unknown => {
    const atP = f === p[k];
    if (!atP && f !== q[k]) {
      const original = f === a ? ao[k] : f === b ? bo[k] : f === c ? co[k] : f === d ? dO[k] : UNKNOWN;
      if (original !== UNKNOWN)
        return original !== null && evaluated && plainTypedArray(arg) ? original : null;
      return typeof f !== 'function' || isView(o) || laterMethods.has(f) ? null : f;
    }
    if (!isView(o)) return f;
    if (any[k] === true || !notShared(o)) return null;
    if ((atP ? pa[k] : qa[k]) === true && (!evaluated || !notShared(arg))) return null;
    return atP ? po[k] : qo[k];
  };
  /** For a direct method: its original on a receiver not over shared memory, else null (sited, as pick would say). */
  const directOn = (o: unknown, k: number): unknown => (notShared(o) ? direct[k] : null);
  // a user's method (a constant) folds to `f` without inlining the rest (V8's inlining budget is for the method),
  // and so does a direct method on a receiver found not shared (a loop over a Buffer: the `Buffer#readUInt32LE` row)
  return {
    callee: (o, f, k) =>
      f === dp[k] ? directOn(o, k) : plainMethod(f, k) ? f : pick(o, f, k, undefined, false),
    callee1: (o, f, k, arg) =>
      f === dp[k] ? directOn(o, k) : plainMethod(f, k) ? f : pick(o, f, k, arg, true),
    direct,
  };
}
