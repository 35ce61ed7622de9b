/**
 * **Bulk methods** (the range they touch is checked before they run): `TypedArray.prototype` set (target written,
 * shared source read), fill, copyWithin, slice, sort, reverse (written), join, map, forEach, reduce, reduceRight,
 * filter, at, toLocaleString, toReversed, toSorted, with (read; `with` all but the replaced element);
 *
 * **Element by element** (each element checked right before it is read, so an element never read is never
 * checked): iteration — `TypedArray.prototype` values, entries and `[Symbol.iterator]`, hence `for…of`, spread,
 * `Array.from`, `%TypedArray%.from`, array destructuring, `new Set(view)`... (`keys` reads no element) — and the
 * methods that may stop early with a predicate: find, findIndex, findLast, findLastIndex, every, some;
 *
 * **Searched, then checked** (the elements the search read, as one range, before it returns): indexOf, lastIndexOf,
 * includes (but of NaN: element by element).
 */
import type { Callee, Context } from '../context.js';
import { Access } from '../shadow/goldilocks.js';
import {
  type AnyFn,
  allElements,
  type Before,
  checkElements,
  defineHidden,
  integer,
  lengthOf,
  override,
  relative,
  wrapMethod,
} from './common.js';

/**
 * The methods of both `%TypedArray%.prototype` and `Array.prototype` (ECMA-262 §23.2.3, §23.1.3) that read or
 * write a whole range of their `this` whatever its elements are: what each touches, for a view `this`. The Array
 * versions given a view (`Array.prototype.map.call(view, f)`) touch the same elements as the TypedArray ones.
 */
export function rangeMethods(ctx: Context): Record<string, Before> {
  const read = allElements(ctx, 0);
  const methods: Record<string, Before> = {
    fill(self, [, start, end], fn, what) {
      const len = lengthOf(self);
      checkElements(ctx, self, relative(start, len, 0), relative(end, len, len), Access.WRITE, what, fn);
    },
    copyWithin(self, [target, start, end], fn, what) {
      const len = lengthOf(self);
      const to = relative(target, len, 0);
      const from = relative(start, len, 0);
      const count = Math.min(relative(end, len, len) - from, len - to);
      if (count <= 0) return;
      checkElements(ctx, self, from, from + count, 0, what, fn);
      checkElements(ctx, self, to, to + count, Access.WRITE, what, fn);
    },
    slice(self, [start, end], fn, what) {
      const len = lengthOf(self);
      checkElements(ctx, self, relative(start, len, 0), relative(end, len, len), 0, what, fn);
    },
    at(self, [i], fn, what) {
      const n = integer(i);
      const k = n < 0 ? lengthOf(self) + n : n;
      if (k >= 0 && k < lengthOf(self)) checkElements(ctx, self, k, k + 1, 0, what, fn);
    },
    with(self, [i], fn, what) {
      const len = lengthOf(self);
      const n = integer(i);
      const k = n < 0 ? len + n : n;
      if (k < 0 || k >= len) return; // the original throws RangeError
      checkElements(ctx, self, 0, k, 0, what, fn);
      checkElements(ctx, self, k + 1, len, 0, what, fn);
    },
    // the loop swaps elements lower and len - 1 - lower while lower < floor(len / 2): the middle one is untouched
    reverse(self, _args, fn, what) {
      const len = lengthOf(self);
      const half = Math.floor(len / 2);
      checkElements(ctx, self, 0, half, Access.WRITE, what, fn);
      checkElements(ctx, self, len - half, len, Access.WRITE, what, fn);
    },
    sort: allElements(ctx, Access.WRITE),
  };
  for (const name of ['join', 'map', 'forEach', 'reduce', 'reduceRight', 'filter', 'toLocaleString'])
    methods[name] = read;
  for (const name of ['toReversed', 'toSorted']) methods[name] = read;
  return methods;
}

export function patchTypedArray(ctx: Context): void {
  const proto = Object.getPrototypeOf(Int8Array.prototype) as Record<string, AnyFn>;
  wrapMethod(
    ctx,
    proto,
    'TypedArray',
    'set',
    (self, [source, offset], fn, what) => {
      const src = ctx.shared(source) ? (source as Int8Array) : undefined;
      if (!src && !ctx.shared(self)) return;
      const off = integer(offset);
      const n = (Object(source) as ArrayLike<unknown>).length >>> 0;
      if (off < 0 || off + n > self.length) return; // the original throws RangeError
      if (src) checkElements(ctx, src, 0, n, 0, what, fn);
      if (ctx.shared(self)) checkElements(ctx, self, off, off + n, Access.WRITE, what, fn);
    },
    true,
  );
  for (const [name, before] of Object.entries(rangeMethods(ctx)))
    wrapMethod(ctx, proto, 'TypedArray', name, before);
  patchIteration(ctx, proto);
  patchSearch(ctx, proto, 'TypedArray');
}

/** %ArrayIteratorPrototype%.next (ECMA-262 §23.1.5.2.1), shared by the iterators of arrays and typed arrays. */
const arrayIteratorNext = Object.getPrototypeOf([][Symbol.iterator]()).next as (
  this: unknown,
) => IteratorResult<unknown>;

/**
 * `values` and `entries` of a shared view (and `[Symbol.iterator]`, the same function as `values`, ECMA-262
 * §23.2.3.37: `for…of`, spread, `Array.from`, `%TypedArray%.from`, array destructuring...) return the original
 * iterator with an own `next` that checks element k right before the original `next` reads it, so exactly the
 * elements read are checked, one by one as they are read. The site is where the iterator was created. `keys`
 * reads no element.
 */
function patchIteration(ctx: Context, proto: Record<PropertyKey, AnyFn>): void {
  for (const name of ['values', 'entries']) {
    override(ctx, proto, 'TypedArray', name, (self, args, fn, what, orig) => {
      const it = orig.apply(self, args) as Iterator<unknown>;
      const site = ctx.callerSite(fn);
      let k = 0;
      let done = false;
      const next = function (this: unknown): IteratorResult<unknown> {
        if (this !== it) return arrayIteratorNext.call(this);
        if (!done && k < self.length) checkElements(ctx, self, k, k + 1, 0, what, next, site);
        const r = arrayIteratorNext.call(it);
        if (r.done) done = true;
        else k++;
        return r;
      };
      defineHidden(it, 'next', next as AnyFn);
      return it;
    });
  }
  defineHidden(proto, Symbol.iterator, proto.values);
}

/**
 * The methods that may stop before the end (ECMA-262 §23.2.3: indexOf, lastIndexOf, includes, find, findIndex,
 * findLast, findLastIndex, every, some) check, on shared views, exactly the elements they read: those with a
 * predicate run as the spec's loop with each element checked as a data read right before it is read (the predicate
 * is the program's code); indexOf, lastIndexOf and includes, which run none, search with the original and check the
 * range it read before returning (see below). No element after the stop is checked. A predicate that is not callable
 * goes to the original, which throws its TypeError.
 */
export function patchSearch(ctx: Context, proto: Record<PropertyKey, AnyFn>, owner: string): void {
  /**
   * Reads elements k = from, from + step, ... of `self` while 0 ≤ k < len, checking each right before reading it,
   * until `stop(value, k)` holds. @returns that k, or -1.
   */
  const scan = (
    self: Int8Array,
    from: number,
    step: 1 | -1,
    fn: Callee,
    what: string,
    stop: (value: unknown, k: number) => unknown,
  ): number => {
    const len = lengthOf(self);
    const site = ctx.callerSite(fn);
    for (let k = from; k >= 0 && k < len; k += step) {
      checkElements(ctx, self, k, k + 1, 0, what, fn, site);
      if (stop(self[k], k)) return k;
    }
    return -1;
  };
  /** A method with a predicate: scans until the predicate's truth is `until`; `result` of where it stopped. */
  const search = (
    name: string,
    step: 1 | -1,
    until: boolean,
    result: (k: number, value: unknown) => unknown,
  ) =>
    override(ctx, proto, owner, name, (self, args, fn, what, orig) => {
      const [predicate, thisArg] = args;
      if (typeof predicate !== 'function') return orig.apply(self, args);
      let found: unknown;
      const stop = (v: unknown, k: number) => {
        found = v;
        return Boolean(predicate.call(thisArg, v, k, self)) === until;
      };
      const k = scan(self, step > 0 ? 0 : lengthOf(self) - 1, step, fn, what, stop);
      return result(k, k < 0 ? undefined : found);
    });
  search('find', 1, true, (_k, v) => v);
  search('findIndex', 1, true, (k) => k);
  search('findLast', -1, true, (_k, v) => v);
  search('findLastIndex', -1, true, (k) => k);
  search('every', 1, false, (k) => k < 0);
  search('some', 1, true, (k) => k >= 0);
  /** SameValueZero (ECMA-262 §7.2.11). */
  const sameValueZero = (a: unknown, b: unknown) => a === b || Object.is(a, b);
  // indexOf, lastIndexOf and includes of a value other than NaN run no code of the program while they search (`from`
  // converted first): the original finds where the search stops, then the elements it read are checked as one range
  // (a bulk check: `../context.ts` checkRange) before the result is returned. A race found there throws (under
  // --on-race=throw) before the program sees anything the racing reads gave, as a check of each element right before
  // its read would; without a race, no write of another thread came between those reads and the check (it would
  // race with them), so the result is the one the checked search would give.
  const indexOf = proto.indexOf;
  const lastIndexOf = proto.lastIndexOf;
  /** The first k ≥ from with self[k] === x, or -1, its reads [from, k] (or to the end) checked. */
  const searchUp = (self: Int8Array, x: unknown, from: number, fn: Callee, what: string): number => {
    const len = lengthOf(self);
    const k = indexOf.call(self, x, from) as number;
    checkElements(ctx, self, from, k < 0 ? len : k + 1, 0, what, fn);
    return k;
  };
  override(ctx, proto, owner, 'indexOf', (self, [x, from], fn, what) =>
    lengthOf(self) === 0 ? -1 : searchUp(self, x, relative(from, lengthOf(self), 0), fn, what),
  );
  override(ctx, proto, owner, 'includes', (self, [x, from], fn, what) => {
    if (lengthOf(self) === 0) return false;
    const start = relative(from, lengthOf(self), 0);
    // NaN: indexOf never finds it, includes does (SameValueZero); the spec's loop, each element checked
    if (Number.isNaN(x)) return scan(self, start, 1, fn, what, (v) => sameValueZero(v, x)) >= 0;
    return searchUp(self, x, start, fn, what) >= 0;
  });
  override(ctx, proto, owner, 'lastIndexOf', (self, args, fn, what) => {
    const len = lengthOf(self);
    if (len === 0) return -1;
    const n = args.length > 1 ? integer(args[1]) : len - 1;
    const from = n >= 0 ? Math.min(n, len - 1) : len + n;
    if (from < 0) return -1;
    const k = lastIndexOf.call(self, args[0], from) as number;
    checkElements(ctx, self, Math.max(k, 0), from + 1, 0, what, fn);
    return k;
  });
}
