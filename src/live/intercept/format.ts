/**
 * The built-ins that format a view as text by reading its elements from native code: `JSON.stringify` (through
 * `%TypedArray%.prototype.toJSON`) and `util.inspect`/`console.log` (through `[util.inspect.custom]`), and Buffer's
 * own toJSON and `[util.inspect.custom]`.
 */
import buffer from 'node:buffer';
import { inspect, types } from 'node:util';
import type { Callee, Context } from '../context.js';
import {
  type AnyFn,
  checkAll,
  checkElements,
  defineHidden,
  elementIndex,
  lengthOf,
  replaceFunction,
  wrapMethod,
} from './common.js';

/**
 * `JSON.stringify` (ECMA-262 §25.5.2) serializes a view as an object: it reads each element (SerializeJSONObject)
 * after the view's `toJSON` and the replacer function, if any, have been applied (SerializeJSONProperty). So
 * `%TypedArray%.prototype.toJSON` is defined (not enumerable) to return the view itself, checking first the
 * elements the JSON.stringify running will read: all of them, or those a property list (an array replacer) names.
 * With a replacer function, the replacer is wrapped instead: its result, when a shared view, is what gets
 * serialized and is checked. `Buffer#toJSON` (Node's own: reads every byte) is checked whenever it runs. The
 * output is unchanged: toJSON returns its `this`, the property list is passed on as the strings the spec makes of
 * it (computed once, in the spec's order), and the replacer wrapper returns what the replacer returns.
 */
export function patchJson(ctx: Context): void {
  /** The running JSON.stringify's replacer is a function: its result is checked, not the view at toJSON. */
  const REPLACER = 'replacer';
  /** What the innermost JSON.stringify running reads of a view it serializes; undefined: none is running. */
  let reads: 'all' | typeof REPLACER | Set<string> | undefined;
  const check = (v: Int8Array, keys: 'all' | Set<string>, fn: Callee) => {
    const site = ctx.callerSite(fn, true);
    if (keys === 'all') checkAll(ctx, v, 0, 'JSON.stringify', fn, site);
    else
      for (const key of keys) {
        const k = elementIndex(v, key);
        if (k >= 0) checkElements(ctx, v, k, k + 1, 0, 'JSON.stringify', fn, site);
      }
  };
  /** The property list of an array replacer (ECMA-262 §25.5.2, step 4.b). */
  const propertyList = (replacer: unknown[]): string[] => {
    const list = new Set<string>();
    const len = replacer.length;
    for (let k = 0; k < len; k++) {
      const v = replacer[k];
      if (typeof v === 'string') list.add(v);
      else if (typeof v === 'number' || types.isStringObject(v) || types.isNumberObject(v))
        list.add(String(v));
    }
    return [...list];
  };
  const stringify = JSON.stringify as AnyFn;
  const stringifyFn = function (this: unknown, value: unknown, replacer?: unknown, space?: unknown): unknown {
    const outer = reads;
    let r = replacer;
    if (typeof replacer === 'function') {
      reads = REPLACER;
      const wrapped = function (this: unknown, key: string, v: unknown): unknown {
        const out = replacer.call(this, key, v);
        if (ctx.shared(out)) check(out as Int8Array, 'all', wrapped);
        return out;
      };
      r = wrapped;
    } else if (Array.isArray(replacer)) {
      r = propertyList(replacer);
      reads = new Set(r as string[]);
    } else reads = 'all';
    try {
      return Reflect.apply(stringify, JSON, [value, r, space]);
    } finally {
      reads = outer;
    }
  };
  replaceFunction(JSON, 'stringify', stringifyFn);
  const toJSON = function toJSON(this: unknown): unknown {
    if (reads !== undefined && reads !== REPLACER && ctx.shared(this))
      check(this as Int8Array, reads, toJSON);
    return this;
  };
  // its name as written (the bundle renames the function where another of that name is in scope)
  Object.defineProperty(toJSON, 'name', { value: 'toJSON' });
  defineHidden(Object.getPrototypeOf(Int8Array.prototype), 'toJSON', toJSON);
  wrapMethod(ctx, Buffer.prototype as unknown as Record<string, AnyFn>, 'Buffer', 'toJSON', (self, _a, fn) =>
    check(self, 'all', fn),
  );
}

/**
 * `util.inspect` and `console.log` (lib/internal/util/inspect.js) call an object's `[util.inspect.custom]` before
 * formatting it, and format it as usual when that returns the object itself. `%TypedArray%.prototype` gets one (not
 * enumerable) that returns its `this`, checking first the elements `formatTypedArray` will read: element 0 (to pick
 * the number formatter) and the first `maxArrayLength` ones — none when the view is beyond the inspection depth
 * (then it prints `[Uint8Array]`). Buffer's own `[util.inspect.custom]` reads its first `INSPECT_MAX_BYTES` bytes
 * (lib/buffer.js) whatever the depth: checked whenever it runs. The output is unchanged. Not seen: inspection with
 * `customInspect: false`.
 */
export function patchInspect(ctx: Context): void {
  const custom = function (this: unknown, depth: unknown, options?: { maxArrayLength?: unknown }): unknown {
    if (ctx.shared(this) && (depth === null || (depth as number) >= 0)) {
      const v = this as Int8Array;
      const len = lengthOf(v);
      const max =
        options?.maxArrayLength === null ? Number.POSITIVE_INFINITY : Number(options?.maxArrayLength);
      const n = Math.min(Math.max(0, max), len);
      const read = n > 0 ? n : Math.min(len, 1); // NaN (maxArrayLength undefined): the loop reads nothing
      checkElements(ctx, v, 0, read, 0, 'util.inspect', custom, ctx.callerSite(custom, true));
    }
    return this;
  };
  defineHidden(Object.getPrototypeOf(Int8Array.prototype), inspect.custom, custom as AnyFn);
  const proto = Buffer.prototype as unknown as Record<PropertyKey, AnyFn>;
  const orig = proto[inspect.custom];
  const bufferCustom = function (this: unknown, ...args: unknown[]): unknown {
    if (ctx.shared(this)) {
      const n = Math.min(buffer.INSPECT_MAX_BYTES, lengthOf(this as Int8Array));
      checkElements(
        ctx,
        this as Int8Array,
        0,
        n,
        0,
        'Buffer#inspect',
        bufferCustom,
        ctx.callerSite(bufferCustom, true),
      );
    }
    return orig.apply(this, args);
  };
  replaceFunction(proto, inspect.custom, bufferCustom);
}
