/**
 * Tests of values on the built-ins as they were when this module loaded, before any user code: is it a view, over
 * shared memory, a TypedArray constructor; reading a property or an element without running code ({@link Hooks.peek},
 * {@link Hooks.row}), whether it is a
 * pure `Math` function ({@link Hooks.pure}), and whether reading variables throws ({@link Hooks.declared}).
 */

import { isProxy } from 'node:util/types';
import type { Hooks } from './contract.js';
import { MIN_RANGE_ITERATIONS, PURE_MATH, PURE_NUMBER } from './names.js';

/** `ArrayBuffer.isView` (ECMA-262 §25.1.5.1). */
export const isView = ArrayBuffer.isView;
/** The `SharedArrayBuffer` constructor. */
export const SAB = SharedArrayBuffer;
const TypedArray = Object.getPrototypeOf(Int8Array.prototype) as object;
/** The getter of `%TypedArray%.prototype.buffer` (ECMA-262 §23.2.3.2); call it with a TypedArray as `this`. */
export const bufferOf = Object.getOwnPropertyDescriptor(TypedArray, 'buffer')!.get!;
/**
 * The getter of `%TypedArray%.prototype[@@toStringTag]` (ECMA-262 §23.2.3.38): the constructor's name for a
 * TypedArray, undefined for any other `this` (a DataView).
 */
export const toStringTag = Object.getOwnPropertyDescriptor(TypedArray, Symbol.toStringTag)!.get!;
/** The getter of `%TypedArray%.prototype.length` (ECMA-262 §23.2.3.21). */
const lengthOf = Object.getOwnPropertyDescriptor(TypedArray, 'length')!.get!;
/** {@link Hooks.typedArray}. */
export const typedArray = (o: unknown): boolean => isView(o) && toStringTag.call(o) !== undefined;
/** Is `o` a TypedArray whose buffer is a SharedArrayBuffer ({@link Hooks.shared})? */
export const shared = (o: unknown): boolean => typedArray(o) && bufferOf.call(o) instanceof SAB;
/** The getter of `DataView.prototype.buffer` (ECMA-262 §25.3.4.1); call it with a DataView as `this`. */
const dataViewBufferOf = Object.getOwnPropertyDescriptor(DataView.prototype, 'buffer')!.get!;
/**
 * Is `o` a view, a TypedArray or a DataView, whose buffer is a SharedArrayBuffer? The receivers a rewritten call of a
 * view's method must not call the method's original on (`./callee.ts`).
 */
export const sharedView = (o: unknown): boolean =>
  isView(o) &&
  (toStringTag.call(o) !== undefined ? bufferOf.call(o) : dataViewBufferOf.call(o)) instanceof SAB;
const TypedArrayConstructor = Object.getPrototypeOf(Int8Array) as object;
const { getOwnPropertyDescriptor, getPrototypeOf } = Object;
/** What {@link Hooks.peek} answers when it cannot tell: equal to no value user code can hold. */
export const UNKNOWN = Object.freeze(Object.create(null));
/**
 * The value of `o[p]` when reading it runs no code (ECMA-262 §10.1.8.1 OrdinaryGet: no Proxy on the prototype chain
 * up to the first object with an own `p`, which is a data property), else {@link UNKNOWN} (and when no object of the
 * chain has `p`).
 */
function read(o: unknown, p: PropertyKey): unknown {
  let x = o;
  while ((typeof x === 'object' && x !== null) || typeof x === 'function') {
    if (isProxy(x)) return UNKNOWN;
    let d: PropertyDescriptor | undefined;
    try {
      d = getOwnPropertyDescriptor(x, p);
    } catch {
      return UNKNOWN; // a module namespace's binding before its initialization
    }
    if (d !== undefined) return 'value' in d ? d.value : UNKNOWN;
    x = getPrototypeOf(x);
  }
  return UNKNOWN;
}
/** {@link Hooks.peek}. */
export const peek = (o: unknown, p: string): unknown => {
  const v = read(o, p);
  return shared(v) ? UNKNOWN : v;
};
/** {@link Hooks.row}. */
export const row = (o: unknown, k: number | string): unknown => {
  if (isView(o)) return null;
  const v = read(o, k);
  return v === UNKNOWN ? null : v;
};
const protoOf = Object.prototype.isPrototypeOf;
/** The functions of `PURE_MATH` and `PURE_NUMBER` as they were at startup. */
const pureBuiltins: ReadonlySet<unknown> = new Set([
  ...PURE_MATH.map((name) => Math[name]),
  ...PURE_NUMBER.map((name) => Number[name]),
]);
/**
 * Is {@link peek}`(o, p)`, `o` the value of `object()`, one of the `Math` functions of `PURE_MATH` or the `Number`
 * predicates of `PURE_NUMBER` as they were at startup, for each name `p` of `names` ({@link Hooks.pure})? False when `object()` throws (its binding in its
 * temporal dead zone, or not declared), which a loop of no iteration would not have thrown.
 */
export function pure(object: () => unknown, ...names: string[]): boolean {
  let o: unknown;
  try {
    o = object();
  } catch {
    return false;
  }
  for (const p of names) if (!pureBuiltins.has(peek(o, p))) return false;
  return true;
}

/** {@link Hooks.declared}: does `read()` return without throwing? */
export function declared(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}

/**
 * Is `o`'s `length` read by the built-in getter alone (no Proxy on the prototype chain up to the first object with
 * an own `length`, which is `%TypedArray%.prototype` with its getter as at startup)? Then reading `o.length` runs no
 * other code and gives the TypedArray's length (ECMA-262 §23.2.3.21).
 */
function builtinLength(o: unknown): boolean {
  let x: unknown = o;
  while (typeof x === 'object' && x !== null) {
    if (isProxy(x)) return false;
    const d = getOwnPropertyDescriptor(x, 'length');
    if (d !== undefined) return d.get === lengthOf;
    x = getPrototypeOf(x);
  }
  return false;
}

/**
 * {@link Hooks.fixedLength}: is `o` a TypedArray over a SharedArrayBuffer that cannot grow, whose `length` is read
 * by the built-in getter alone ({@link builtinLength})? Then every read of `o.length` gives the same number and runs
 * no other code.
 */
export function fixedLength(o: unknown): boolean {
  if (!shared(o) || (bufferOf.call(o) as SharedArrayBuffer).growable) return false;
  return builtinLength(o);
}

/** `%TypedArray%.prototype.values` (ECMA-262 §23.2.3.37) as it was when this module loaded, before any user code. */
const typedValues = (TypedArray as { values: unknown }).values;
/** %ArrayIteratorPrototype% (ECMA-262 §23.1.5.2) and its `next` as at startup. */
const arrayIterators = getPrototypeOf([][Symbol.iterator]()) as object;
const arrayIteratorNext = (arrayIterators as { next: unknown }).next;

/**
 * {@link Hooks.typedIteration}, for a runtime whose replacements of built-ins map to the originals they replaced
 * (`Runtime.originals`, `./contract.ts`): is `o` a TypedArray whose iteration is the built-in one — `o[Symbol.iterator]`
 * read without running code (no Proxy on the prototype chain, a data property) is `%TypedArray%.prototype.values` as
 * at startup or the runtime's replacement of it, %ArrayIteratorPrototype%.next is the startup one, and `o.length` is
 * read by the built-in getter ({@link builtinLength}), and `o` has at least `MIN_RANGE_ITERATIONS` (`./names.ts`) elements? Then `for (const x of o)` reads elements 0, 1, ... while the
 * index is below `o.length` read at each step (ECMA-262 §14.7.5.6 ForIn/OfBodyEvaluation, §23.1.5.2.1
 * %ArrayIteratorPrototype%.next), and neither the iteration nor the length reads run other code.
 */
export function typedIteration(originals: ReadonlyMap<unknown, { readonly original: unknown }>) {
  return (o: unknown): boolean => {
    // fewer elements than the range check takes (and a view out of bounds, its buffer detached or shrunk, whose
    // iteration throws a TypeError, reads as of length 0: ECMA-262 §23.2.3.21)
    if (!typedArray(o) || lengthOf.call(o) < MIN_RANGE_ITERATIONS || !builtinLength(o)) return false;
    if (read(arrayIterators, 'next') !== arrayIteratorNext) return false;
    const values = read(o, Symbol.iterator);
    return values === typedValues || (values !== UNKNOWN && originals.get(values)?.original === typedValues);
  };
}
/**
 * Is `c` one of the TypedArray constructors (ECMA-262 §23.2.7) or a subclass of one (`class M extends Uint8Array`,
 * Node's `Buffer`)? A subclass is taken to pass its first argument on to the TypedArray constructor, as its default
 * constructor does (§15.7.14).
 */
export const isTypedArrayConstructor = (c: unknown): boolean =>
  typeof c === 'function' && protoOf.call(TypedArrayConstructor, c);

/**
 * `!isShared(o)` for an `isShared` whose answer never changes for a value (a view never changes its buffer), keeping
 * the last two values it answered false for and the last two it answered true for: asking again about them is at most
 * four comparisons (a bulk method's receiver and argument, a loop over one view, `Atomics` calls on a lock word and a
 * counter in turn).
 */
export function notSharedCache(isShared: (o: unknown) => boolean): (o: unknown) => boolean {
  // slots not filled yet hold a value no program has (undefined would be answered from them)
  const none = {};
  let plain: unknown = none;
  let plain2: unknown = none;
  let inShared: unknown = none;
  let inShared2: unknown = none;
  return (o) => {
    if (o === plain || o === plain2) return true;
    if (o === inShared || o === inShared2) return false;
    if (isShared(o)) {
      inShared2 = inShared;
      inShared = o;
      return false;
    }
    plain2 = plain;
    plain = o;
    return true;
  };
}
