/**
 * **Generic built-ins given a shared view**: `Array.prototype` methods (the same ranges, flat, flatMap, toSpliced,
 * the search methods element by element), `Object.values`/`entries`/`assign`, `Reflect.construct` of a TypedArray
 * constructor, `JSON.stringify` (through `%TypedArray%.prototype.toJSON`), `util.inspect` (through
 * `[util.inspect.custom]`), `Buffer.prototype` toJSON, `[util.inspect.custom]`, indexOf, lastIndexOf, includes.
 * Here: `Array.prototype`, `Object` and `Reflect.construct`; `JSON.stringify` and `util.inspect` in `./format.ts`,
 * Buffer's in `./buffer.ts`.
 */
import { isTypedArrayConstructor } from '../../hooks/views.js';
import type { Callee, Context } from '../context.js';
import { Access } from '../shadow/goldilocks.js';
import {
  type AnyFn,
  allElements,
  checkAll,
  checkElements,
  elementIndex,
  integer,
  lengthOf,
  relative,
  replaceFunction,
  wrapMethod,
} from './common.js';
import { patchSearch, rangeMethods } from './typed-array.js';

/**
 * `Array.prototype` methods given a shared view as `this` (ECMA-262 §23.1.3: they are generic): those of
 * {@link rangeMethods}; flat and flatMap (read every element); toSpliced (reads all but the skipped ones); the
 * search methods element by element ({@link patchSearch}). Not patched: push, pop, shift, unshift and splice,
 * which throw a TypeError on every view (its length cannot be set) — pop, shift, unshift and splice after touching
 * elements; concat (a view is not concat-spreadable) and keys (no element read); values, entries and
 * `[Symbol.iterator]` (one function: replacing it costs every array's for-of and spread V8's fast path, 8× and
 * 30× measured). toString calls `this.join`, the TypedArray one on a view.
 */
export function patchArray(ctx: Context): void {
  const proto = Array.prototype as unknown as Record<string, AnyFn>;
  const methods = rangeMethods(ctx);
  for (const name of ['flat', 'flatMap']) methods[name] = allElements(ctx, 0);
  methods.toSpliced = (self, args, fn, what) => {
    const len = lengthOf(self);
    const start = relative(args[0], len, 0);
    const skip =
      args.length === 0
        ? 0
        : args.length === 1
          ? len - start
          : Math.min(Math.max(integer(args[1]), 0), len - start);
    checkElements(ctx, self, 0, start, 0, what, fn);
    checkElements(ctx, self, start + skip, len, 0, what, fn);
  };
  for (const [name, before] of Object.entries(methods)) wrapMethod(ctx, proto, 'Array', name, before);
  patchSearch(ctx, proto, 'Array');
}

/**
 * `Object.values`, `Object.entries` (read every element of a shared view, ECMA-262 §20.1.2.22, §20.1.2.5) and
 * `Object.assign` (§20.1.2.1): given a shared view as target or source, it runs as the spec's loop, each element
 * of a source checked right before it is read and each element of the target right before it is written (keys
 * that name no element touch no memory). `Reflect.construct` of a TypedArray constructor (or subclass) with a
 * shared view as first argument reads all of it, like `new` (§23.2.5.1).
 */
export function patchObject(ctx: Context): void {
  const readAll = (v: unknown, what: string, fn: Callee) => {
    if (ctx.shared(v)) checkAll(ctx, v as Int8Array, 0, what, fn);
  };
  const { values, entries, assign } = Object;
  const valuesFn = function (this: unknown, o: unknown): unknown {
    readAll(o, 'Object.values', valuesFn);
    return values(o as object);
  };
  const entriesFn = function (this: unknown, o: unknown): unknown {
    readAll(o, 'Object.entries', entriesFn);
    return entries(o as object);
  };
  replaceFunction(Object, 'values', valuesFn);
  replaceFunction(Object, 'entries', entriesFn);
  const assignFn = function (this: unknown, target: unknown, ...sources: unknown[]): unknown {
    let shared = ctx.shared(target);
    for (let i = 0; i < sources.length && !shared; i++) shared = ctx.shared(sources[i]);
    if (!shared || target === null || target === undefined)
      return Reflect.apply(assign, Object, [target, ...sources]);
    const to = Object(target) as Record<PropertyKey, unknown>;
    const site = ctx.callerSite(assignFn);
    const check = (v: unknown, key: PropertyKey, flags: number) => {
      const k = ctx.shared(v) ? elementIndex(v as Int8Array, key) : -1;
      if (k >= 0) checkElements(ctx, v as Int8Array, k, k + 1, flags, 'Object.assign', assignFn, site);
    };
    for (const source of sources) {
      if (source === null || source === undefined) continue;
      const from = Object(source) as Record<PropertyKey, unknown>;
      for (const key of Reflect.ownKeys(from)) {
        check(from, key, 0); // [[GetOwnProperty]] of an element reads it, as [[Get]] does
        if (!Reflect.getOwnPropertyDescriptor(from, key)?.enumerable) continue;
        const value = from[key];
        check(to, key, Access.WRITE);
        to[key] = value; // strict code: a failed [[Set]] throws TypeError, as Set(to, key, value, true) does
      }
    }
    return to;
  };
  replaceFunction(Object, 'assign', assignFn as AnyFn);
  const construct = Reflect.construct as AnyFn;
  const constructFn = function (this: unknown, target: unknown, args: unknown, ...rest: unknown[]): unknown {
    if (Array.isArray(args) && ctx.shared(args[0]) && isTypedArrayConstructor(target))
      readAll(args[0], 'Reflect.construct', constructFn);
    return Reflect.apply(construct, Reflect, [target, args, ...rest]);
  };
  replaceFunction(Reflect, 'construct', constructFn);
}
