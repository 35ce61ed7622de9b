/**
 * What every family of interceptors (`./atomics.ts`, `./dataview.ts`, `./typed-array.ts`, `./generic.ts`,
 * `./buffer.ts`, `./text.ts`, `./format.ts`) shares: the spec's index conversions, the replacement of a built-in
 * function by one the program cannot tell from it, the table of {@link originals}, and the range checks of a
 * view's elements.
 */

import { disguise } from '../../hooks/native.js';
import type { Callee, Context } from '../context.js';

export type Fn = (...args: never[]) => unknown;
export type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

/** ToIntegerOrInfinity (ECMA-262 §7.1.5). */
export const integer = (v: unknown): number => {
  const n = Math.trunc(Number(v));
  return Number.isNaN(n) ? 0 : n;
};
/** A relative index (negative from the end) clamped to [0, len], `dflt` for undefined. */
export const relative = (v: unknown, len: number, dflt: number): number => {
  if (v === undefined) return dflt;
  const n = integer(v);
  return n < 0 ? Math.max(len + n, 0) : Math.min(n, len);
};

/** %TypedArray%.prototype.length's getter (ECMA-262 §23.2.3.21): a view's length, whatever its own properties. */
const lengthGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length')!
  .get!;
export const lengthOf = (v: ArrayBufferView): number => lengthGetter.call(v) as number;

/**
 * The element index of view `v` that property key `key` names (a canonical numeric string that is a valid integer
 * index, ECMA-262 §7.1.21 and §10.4.5.14), or -1 when `key` names no element.
 */
export const elementIndex = (v: ArrayBufferView, key: PropertyKey): number => {
  if (typeof key !== 'string') return -1;
  const n = Number(key);
  return String(n) === key && Number.isInteger(n) && n >= 0 && n < lengthOf(v) ? n : -1;
};

/**
 * Replaces the function `owner[name]` by `fn`, which takes the original's `name`, `length` and text (`../native.ts`:
 * so that the program sees no difference there) and its property's attributes.
 */
export function replaceFunction(owner: object, name: PropertyKey, fn: AnyFn): void {
  const desc = Object.getOwnPropertyDescriptor(owner, name)!;
  disguise(fn, desc.value as AnyFn);
  Object.defineProperty(owner, name, { ...desc, value: fn });
}

/** Defines method `fn` as `owner[name]`, not enumerable (as built-in methods are). */
export function defineHidden(owner: object, name: PropertyKey, fn: AnyFn): void {
  Object.defineProperty(owner, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

/**
 * The replacements made by {@link override}, `./atomics.ts`, `./dataview.ts` and `./text.ts`, each with the original it
 * replaced and the index of the argument through which it may also touch shared memory, if any (the runtime's
 * `originals`, `../../hooks/hooks.ts`). One per thread, as this module is.
 */
export const originals = new Map<AnyFn, { original: AnyFn; argument?: number }>();

/** Checks element range [from, to) of shared view `v` at `site` (by default the frame calling `fn`). */
export function checkElements(
  ctx: Context,
  v: ArrayBufferView,
  from: number,
  to: number,
  flags: number,
  what: string,
  fn: Callee,
  site = ctx.callerSite(fn),
): void {
  if (to <= from) return;
  const bpe = (v as Int8Array).BYTES_PER_ELEMENT ?? 1;
  ctx.checkRange(
    v.buffer as SharedArrayBuffer,
    v.byteOffset + from * bpe,
    (to - from) * bpe,
    flags,
    site,
    what,
    fn,
  );
}

/** {@link checkElements} of every element of `v` (as many as %TypedArray%.prototype.length gives). */
export function checkAll(
  ctx: Context,
  v: ArrayBufferView,
  flags: number,
  what: string,
  fn: Callee,
  site?: number,
): void {
  checkElements(ctx, v, 0, lengthOf(v as Int8Array), flags, what, fn, site);
}

/** A replacement of a method: `fn` is the installed function, `what` its report name, `orig` the original. */
export type Impl = (self: Int8Array, args: unknown[], fn: Callee, what: string, orig: AnyFn) => unknown;

/**
 * Replaces `proto[name]` by a function that runs `impl` on shared views (on every view when `always`: a method
 * that may read or write shared memory through its first argument too, and through no other) and the original
 * method on others; records the pair in {@link originals}.
 */
export function override(
  ctx: Context,
  proto: Record<PropertyKey, AnyFn>,
  owner: string,
  name: string,
  impl: Impl,
  always = false,
): void {
  const orig = proto[name];
  if (typeof orig !== 'function') return;
  const what = `${owner}#${name}`;
  const fn = function (this: Int8Array, ...args: unknown[]): unknown {
    return always || ctx.shared(this) ? impl(this, args, fn, what, orig) : orig.apply(this, args);
  };
  replaceFunction(proto, name, fn as AnyFn);
  originals.set(fn as AnyFn, always ? { original: orig, argument: 0 } : { original: orig });
}

/** {@link override} with the original method, run after `before(this, args, fn, what)`. */
export function wrapMethod(
  ctx: Context,
  proto: Record<string, AnyFn>,
  owner: string,
  name: string,
  before: (self: Int8Array, args: unknown[], fn: Callee, what: string) => void,
  always = false,
): void {
  override(
    ctx,
    proto,
    owner,
    name,
    (self, args, fn, what, orig) => {
      before(self, args, fn, what);
      return orig.apply(self, args);
    },
    always,
  );
}

/** What a method touches of the elements of its `this`, checked before it runs (see {@link wrapMethod}). */
export type Before = (self: Int8Array, args: unknown[], fn: Callee, what: string) => void;

/** A check of every element of `this` (flags: WRITE). */
export const allElements =
  (ctx: Context, flags: number): Before =>
  (self, _args, fn, what) =>
    checkAll(ctx, self, flags, what, fn);
