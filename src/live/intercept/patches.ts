/**
 * What the rewriter cannot see at a site, patched once per thread before user code: `Atomics` (synchronization,
 * ECMA-262 §25.4 and the memory model §29), `DataView` get/set, and the built-in methods that read or write many
 * elements of shared memory at once (checked as data reads/writes of every byte they touch).
 *
 * **Atomics.** An atomic operation is a data access with the ATOMIC flag (two atomic accesses of the same range
 * never race; of overlapping unequal ranges they do) and a synchronization cell. Lock order: the word's check lock,
 * then the list lock; under both the check runs, the operation executes, the access is recorded (at the list's
 * length before its own cell: the access is before its release half) and its cell is appended, so list order
 * is the operations' order (a later atomic read really read from the earlier write). `compareExchange` decides
 * under the locks whether it will write (a failed one only reads). `wait`/`waitAsync`/`notify` on one location are
 * ordered through the waiter list's critical section (ECMA-262 §25.4.3.14–16), modelled as a lock of the location
 * (`Tag.WaiterList`): a wait enters it (and reads the value) before sleeping and again after it wakes, a notify
 * enters it while waking waiters, so notify → woken wait is an edge. A wait that returned `'not-equal'` is also an
 * atomic read at its return: that may give an extra edge (never a false alarm).
 *
 * **Bulk methods** (the range they touch is checked before they run): `TypedArray.prototype` set (target written,
 * shared source read), fill, copyWithin, slice, sort, reverse (written), join, map, forEach, reduce, reduceRight,
 * filter, at, toLocaleString, toReversed, toSorted, with (read; `with` all but the replaced element);
 * `Buffer.prototype` toString, write, copy, fill, equals, compare and the `readX`/`writeX` number methods;
 * `Buffer.from(view)` (read). The TypedArray constructors copying a view are checked at their site by the rewriter.
 * `TextDecoder#decode`; `TextEncoder#encodeInto`; `StringDecoder#write` (and `end(buf)`, which calls it).
 *
 * **Element by element** (each element checked right before it is read, so an element never read is never
 * checked): iteration — `TypedArray.prototype` values, entries and `[Symbol.iterator]`, hence `for…of`, spread,
 * `Array.from`, `%TypedArray%.from`, array destructuring, `new Set(view)`... (`keys` reads no element) — and the
 * methods that may stop early: indexOf, lastIndexOf, includes, find, findIndex, findLast, findLastIndex, every,
 * some.
 *
 * **Generic built-ins given a shared view**: `Array.prototype` methods (the same ranges, flat, flatMap, toSpliced,
 * the search methods element by element), `Object.values`/`entries`/`assign`, `Reflect.construct` of a TypedArray
 * constructor, `JSON.stringify` (through `%TypedArray%.prototype.toJSON`), `util.inspect` (through
 * `[util.inspect.custom]`), `Buffer.prototype` toJSON, `[util.inspect.custom]`, indexOf, lastIndexOf, includes.
 * What remains unobserved, and why: docs/RUNTIME.md, "Not observed".
 */
import buffer from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { inspect, types } from 'node:util';
import { isTypedArrayConstructor, notSharedCache } from '../../hooks/views.js';
import { SyncKind } from '../../model/sync.js';
import { A, appendCell, lock, STAT, Tag, unlock } from '../memory/state.js';
import type { Callee, Context } from '../runtime.js';
import { ATOMIC, lockOf, packA, WRITE } from '../shadow/goldilocks.js';

type Fn = (...args: never[]) => unknown;
type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

/** ToIntegerOrInfinity (ECMA-262 §7.1.5). */
const integer = (v: unknown): number => {
  const n = Math.trunc(Number(v));
  return Number.isNaN(n) ? 0 : n;
};
/** A relative index (negative from the end) clamped to [0, len], `dflt` for undefined. */
const relative = (v: unknown, len: number, dflt: number): number => {
  if (v === undefined) return dflt;
  const n = integer(v);
  return n < 0 ? Math.max(len + n, 0) : Math.min(n, len);
};

/** %TypedArray%.prototype.length's getter (ECMA-262 §23.2.3.21): a view's length, whatever its own properties. */
const lengthGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length')!
  .get!;
const lengthOf = (v: ArrayBufferView): number => lengthGetter.call(v) as number;

/**
 * The element index of view `v` that property key `key` names (a canonical numeric string that is a valid integer
 * index, ECMA-262 §7.1.21 and §10.4.5.14), or -1 when `key` names no element.
 */
const elementIndex = (v: ArrayBufferView, key: PropertyKey): number => {
  if (typeof key !== 'string') return -1;
  const n = Number(key);
  return String(n) === key && Number.isInteger(n) && n >= 0 && n < lengthOf(v) ? n : -1;
};

/**
 * Replaces the function `owner[name]` by `fn`, which takes the original's `name` and `length` (so that the
 * program sees no difference there) and its enumerability.
 */
function replaceFunction(owner: object, name: PropertyKey, fn: AnyFn): void {
  const desc = Object.getOwnPropertyDescriptor(owner, name)!;
  const orig = desc.value as AnyFn;
  Object.defineProperty(fn, 'name', { value: orig.name });
  Object.defineProperty(fn, 'length', { value: orig.length });
  Object.defineProperty(owner, name, { ...desc, value: fn });
}

/** Defines method `fn` as `owner[name]`, not enumerable (as built-in methods are). */
function defineHidden(owner: object, name: PropertyKey, fn: AnyFn): void {
  Object.defineProperty(owner, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

/**
 * The replacements made by {@link override}, {@link patchAtomics} and {@link patchText}, each with the original it
 * replaced and the index of the argument through which it may also touch shared memory, if any (the runtime's
 * `originals`, `../../hooks/contract.ts`). One per thread, as this module is.
 */
const originals = new Map<AnyFn, { original: AnyFn; argument?: number }>();

/**
 * Installs every patch of this file for the thread of `ctx`. Returns the patched methods whose receivers are not
 * views (the runtime's `sitedMethods`, `../../hooks/contract.ts`), and the replacements of view methods, `Atomics` functions and
 * those sited methods, with their originals (its `originals`).
 */
export function installPatches(ctx: Context): {
  sitedMethods: readonly AnyFn[];
  originals: ReadonlyMap<AnyFn, { original: AnyFn; argument?: number }>;
} {
  patchAtomics(ctx);
  patchDataView(ctx);
  patchTypedArray(ctx);
  patchArray(ctx);
  patchBuffer(ctx);
  const sitedMethods = patchText(ctx);
  patchObject(ctx);
  patchJson(ctx);
  patchInspect(ctx);
  return { sitedMethods, originals };
}

function patchAtomics(ctx: Context): void {
  const { s, shadow, t } = ctx;
  const scratch = new Map<string, Int32Array | BigInt64Array>();
  /**
   * Runs atomic operation `op` on element `x` of shared `ta` (see the file header). `decide` (under both locks)
   * returns the access's flags and cell kind; `op` runs under both locks and may append more cells.
   */
  const atomic = (
    ta: Int32Array,
    x: number,
    decide: () => number,
    op: () => unknown,
    fn: Callee,
    name: string,
  ): unknown => {
    const bpe = ta.BYTES_PER_ELEMENT;
    const off = ta.byteOffset + x * bpe;
    const id = ctx.idOf(ta.buffer as SharedArrayBuffer);
    const w = Math.floor(off / 8);
    const mask = ((1 << bpe) - 1) << (off - w * 8);
    const word = ctx.baseOf(id) + 2 * w;
    const site = ctx.callerSite(fn);
    shadow.counts[STAT.atomics]++;
    let conflict: ReturnType<typeof shadow.find>;
    let flags = 0;
    let result: unknown;
    if (word + 2 > s.heap.length) s.refresh();
    lock(s, s.heap, lockOf(word));
    try {
      shadow.splitPage(lockOf(word));
      conflict = ctx.listLocked(() => {
        const kindFlags = decide();
        flags = (kindFlags & 0xffff) | ATOMIC;
        const c = shadow.find(word, mask, flags);
        // --record: the data access, attempted (like Shadow.access), at the list's length before its cells
        if (shadow.onAccess !== undefined) shadow.onAccess(word, mask | flags, site);
        if (!(c && ctx.stopOnRace)) {
          result = op();
          // recorded before its cell: the access precedes its own release half (the cell), so a later read of
          // this write (ordered after the cell) is ordered after the access too
          shadow.record(word, mask, flags, site);
          appendCell(s, kindFlags >> 16, t, packA(Tag.Atomic, id), off * 4 + Math.log2(bpe));
        }
        return c;
      });
    } finally {
      unlock(s.heap, lockOf(word));
    }
    if (conflict) ctx.race(conflict, id, off, bpe, flags, site, `Atomics.${name}`, fn);
    return result;
  };
  const READ = (SyncKind.AtomicRead << 16) | 0;
  const RMW = (SyncKind.AtomicRmw << 16) | WRITE;
  const STORE = (SyncKind.AtomicWrite << 16) | WRITE;
  /** The element index `i` of shared `ta` as ValidateAtomicAccess computes it, or -1 to leave it to the original. */
  const element = (ta: unknown, i: unknown): number => {
    if (!ctx.shared(ta)) return -1;
    const x = integer(i);
    return x >= 0 && x < (ta as Int32Array).length ? x : -1;
  };
  const atomics = Atomics as unknown as Record<string, Fn>;
  const rmw = (name: keyof typeof A, decideFlags: number) => {
    const orig = A[name] as unknown as (ta: unknown, i: number, ...v: unknown[]) => unknown;
    const fn = (ta: Int32Array, i: unknown, ...v: unknown[]): unknown => {
      const x = element(ta, i);
      if (x < 0) return orig(ta, i as number, ...v);
      return atomic(
        ta,
        x,
        () => decideFlags,
        () => orig(ta, x, ...v),
        fn,
        name,
      );
    };
    atomics[name] = fn as Fn;
  };
  rmw('load', READ);
  rmw('store', STORE);
  for (const name of ['add', 'sub', 'and', 'or', 'xor', 'exchange'] as const) rmw(name, RMW);
  const cas = (ta: Int32Array, i: unknown, expected: unknown, replacement: unknown): unknown => {
    const x = element(ta, i);
    if (x < 0) return A.compareExchange(ta, i as number, expected as number, replacement as number);
    const tag = Object.prototype.toString.call(ta);
    let sc = scratch.get(tag);
    if (!sc) {
      sc = new (ta.constructor as Int32ArrayConstructor)(1);
      scratch.set(tag, sc);
    }
    const conv = sc as unknown as unknown[];
    conv[0] = expected;
    return atomic(
      ta,
      x,
      () => (A.load(ta, x) === conv[0] ? RMW : READ),
      () => A.compareExchange(ta, x, conv[0] as number, replacement as number),
      cas,
      'compareExchange',
    );
  };
  atomics.compareExchange = cas as Fn;

  const waiters = (ta: Int32Array, x: number): [number, number] => [
    packA(Tag.WaiterList, ctx.idOf(ta.buffer as SharedArrayBuffer)),
    ta.byteOffset + x * ta.BYTES_PER_ELEMENT,
  ];
  /** Leaving the wait: enter and leave the waiter list's critical section (and read again if not-equal). */
  const afterWait = (ta: Int32Array, x: number, result: unknown): void => {
    const [a, b] = waiters(ta, x);
    ctx.listLocked(() => {
      appendCell(s, SyncKind.Acquire, t, a, b);
      if (result === 'not-equal') {
        const off = ta.byteOffset + x * ta.BYTES_PER_ELEMENT;
        appendCell(
          s,
          SyncKind.AtomicRead,
          t,
          packA(Tag.Atomic, ctx.idOf(ta.buffer as SharedArrayBuffer)),
          off * 4 + Math.log2(ta.BYTES_PER_ELEMENT),
        );
      }
      appendCell(s, SyncKind.Release, t, a, b);
    });
  };
  const beforeWait = (ta: Int32Array, x: number, fn: Callee, name: string): void => {
    const [a, b] = waiters(ta, x);
    atomic(
      ta,
      x,
      () => READ,
      () => {
        appendCell(s, SyncKind.Acquire, t, a, b);
        appendCell(s, SyncKind.Release, t, a, b);
      },
      fn,
      name,
    );
  };
  const wait = (ta: Int32Array, i: unknown, value: unknown, timeout?: number): unknown => {
    const x = element(ta, i);
    if (x < 0) return A.wait(ta, i as number, value as number, timeout);
    beforeWait(ta, x, wait, 'wait');
    const r = A.wait(ta, x, value as number, timeout);
    afterWait(ta, x, r);
    return r;
  };
  atomics.wait = wait as Fn;
  if (A.waitAsync) {
    const waitAsync = (ta: Int32Array, i: unknown, value: unknown, timeout?: number): unknown => {
      const x = element(ta, i);
      const orig = A.waitAsync as unknown as (...a: unknown[]) => { async: boolean; value: unknown };
      if (x < 0) return orig(ta, i, value, timeout);
      beforeWait(ta, x, waitAsync, 'waitAsync');
      const r = orig(ta, x, value, timeout);
      if (r.async) {
        r.value = (r.value as Promise<unknown>).then((v) => {
          afterWait(ta, x, v);
          return v;
        });
      } else afterWait(ta, x, r.value);
      return r;
    };
    atomics.waitAsync = waitAsync as Fn;
  }
  const notify = (ta: Int32Array, i: unknown, count?: number): unknown => {
    const x = element(ta, i);
    if (x < 0) return A.notify(ta, i as number, count);
    const [a, b] = waiters(ta, x);
    return ctx.listLocked(() => {
      appendCell(s, SyncKind.Acquire, t, a, b);
      const n = A.notify(ta, x, count);
      appendCell(s, SyncKind.Release, t, a, b);
      return n;
    });
  };
  atomics.notify = notify as Fn;
  // each replacement, on a first argument that is not a view over shared memory, calls its original (`element`)
  for (const name of Object.keys(A) as (keyof typeof A)[])
    if (atomics[name] !== A[name])
      originals.set(atomics[name] as AnyFn, { original: A[name] as AnyFn, argument: 0 });
}

/**
 * `DataView.prototype` get and set methods: an access of shared memory is checked as a data access of its bytes.
 * A DataView never changes its buffer, so the last two found over memory that is not shared are kept
 * ({@link notSharedCache}): an access through one costs a comparison or two more than the original (bench:instrument, "DataView get/set/get, not shared"). The
 * wrappers take the original's parameters (byteOffset, then value for a set, then littleEndian; an absent one is
 * undefined, which the original reads the same way) and its `length`.
 */
function patchDataView(ctx: Context): void {
  const proto = DataView.prototype as unknown as Record<string, AnyFn>;
  const get = (name: string) => Object.getOwnPropertyDescriptor(DataView.prototype, name)!.get!;
  const bufferOf = get('buffer');
  const offsetOf = get('byteOffset');
  const lengthOf = get('byteLength');
  const sizes: Record<string, number> = {
    Int8: 1,
    Uint8: 1,
    Int16: 2,
    Uint16: 2,
    Int32: 4,
    Uint32: 4,
    Float32: 4,
    Float64: 8,
    BigInt64: 8,
    BigUint64: 8,
  };
  /** Is `o` a DataView over memory that is not shared (the last two found so are kept)? */
  const plainDataView = notSharedCache((o) => {
    try {
      return bufferOf.call(o) instanceof SharedArrayBuffer;
    } catch {
      return true; // not a DataView: `check` lets the original throw its own TypeError
    }
  });
  /**
   * Checks the access of `self` at `byteOffset`, a DataView over shared memory (or not a DataView: {@link
   * plainDataView} took the others); returns the offset to pass on to the original.
   */
  const check = (
    self: DataView,
    byteOffset: unknown,
    size: number,
    flags: number,
    name: string,
    fn: AnyFn,
  ) => {
    let buffer: SharedArrayBuffer;
    try {
      buffer = bufferOf.call(self) as SharedArrayBuffer;
    } catch {
      return byteOffset; // not a DataView: the original throws its own TypeError
    }
    const off = integer(byteOffset);
    if (off >= 0 && off + size <= (lengthOf.call(self) as number))
      ctx.checkRange(
        buffer,
        (offsetOf.call(self) as number) + off,
        size,
        flags,
        ctx.callerSite(fn),
        name,
        fn,
      );
    return off;
  };
  for (const [type, size] of Object.entries(sizes)) {
    const getter = proto[`get${type}`];
    const getName = `DataView#get${type}`;
    const getFn = function (this: DataView, byteOffset: unknown, littleEndian: unknown): unknown {
      if (plainDataView(this)) return getter.call(this, byteOffset, littleEndian);
      return getter.call(this, check(this, byteOffset, size, 0, getName, getFn as AnyFn), littleEndian);
    };
    replaceFunction(proto, `get${type}`, getFn as AnyFn);
    const setter = proto[`set${type}`];
    const setName = `DataView#set${type}`;
    const setFn = function (
      this: DataView,
      byteOffset: unknown,
      value: unknown,
      littleEndian: unknown,
    ): unknown {
      if (plainDataView(this)) return setter.call(this, byteOffset, value, littleEndian);
      return setter.call(
        this,
        check(this, byteOffset, size, WRITE, setName, setFn as AnyFn),
        value,
        littleEndian,
      );
    };
    replaceFunction(proto, `set${type}`, setFn as AnyFn);
  }
}

/** Checks element range [from, to) of shared view `v` at `site` (by default the frame calling `fn`). */
function checkElements(
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
function checkAll(
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
type Impl = (self: Int8Array, args: unknown[], fn: Callee, what: string, orig: AnyFn) => unknown;

/**
 * Replaces `proto[name]` by a function that runs `impl` on shared views (on every view when `always`: a method
 * that may read or write shared memory through its first argument too, and through no other) and the original
 * method on others; records the pair in {@link originals}.
 */
function override(
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
function wrapMethod(
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
type Before = (self: Int8Array, args: unknown[], fn: Callee, what: string) => void;

/** A check of every element of `this` (flags: WRITE). */
const allElements =
  (ctx: Context, flags: number): Before =>
  (self, _args, fn, what) =>
    checkAll(ctx, self, flags, what, fn);

/**
 * The methods of both `%TypedArray%.prototype` and `Array.prototype` (ECMA-262 §23.2.3, §23.1.3) that read or
 * write a whole range of their `this` whatever its elements are: what each touches, for a view `this`. The Array
 * versions given a view (`Array.prototype.map.call(view, f)`) touch the same elements as the TypedArray ones.
 */
function rangeMethods(ctx: Context): Record<string, Before> {
  const read = allElements(ctx, 0);
  const methods: Record<string, Before> = {
    fill(self, [, start, end], fn, what) {
      const len = lengthOf(self);
      checkElements(ctx, self, relative(start, len, 0), relative(end, len, len), WRITE, what, fn);
    },
    copyWithin(self, [target, start, end], fn, what) {
      const len = lengthOf(self);
      const to = relative(target, len, 0);
      const from = relative(start, len, 0);
      const count = Math.min(relative(end, len, len) - from, len - to);
      if (count <= 0) return;
      checkElements(ctx, self, from, from + count, 0, what, fn);
      checkElements(ctx, self, to, to + count, WRITE, what, fn);
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
      checkElements(ctx, self, 0, half, WRITE, what, fn);
      checkElements(ctx, self, len - half, len, WRITE, what, fn);
    },
    sort: allElements(ctx, WRITE),
  };
  for (const name of ['join', 'map', 'forEach', 'reduce', 'reduceRight', 'filter', 'toLocaleString'])
    methods[name] = read;
  for (const name of ['toReversed', 'toSorted']) methods[name] = read;
  return methods;
}

function patchTypedArray(ctx: Context): void {
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
      if (ctx.shared(self)) checkElements(ctx, self, off, off + n, WRITE, what, fn);
    },
    true,
  );
  for (const [name, before] of Object.entries(rangeMethods(ctx)))
    wrapMethod(ctx, proto, 'TypedArray', name, before);
  patchIteration(ctx, proto);
  patchSearch(ctx, proto, 'TypedArray');
}

/**
 * `Array.prototype` methods given a shared view as `this` (ECMA-262 §23.1.3: they are generic): those of
 * {@link rangeMethods}; flat and flatMap (read every element); toSpliced (reads all but the skipped ones); the
 * search methods element by element ({@link patchSearch}). Not patched: push, pop, shift, unshift and splice,
 * which throw a TypeError on every view (its length cannot be set) — pop, shift, unshift and splice after touching
 * elements; concat (a view is not concat-spreadable) and keys (no element read); values, entries and
 * `[Symbol.iterator]` (one function: replacing it costs every array's for-of and spread V8's fast path, 8× and
 * 30× measured). toString calls `this.join`, the TypedArray one on a view.
 */
function patchArray(ctx: Context): void {
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
 * findLast, findLastIndex, every, some) run, on shared views, as the spec's loop with each element checked as a
 * data read right before it is read: no element after the stop is checked. A predicate that is not callable goes
 * to the original, which throws its TypeError.
 */
function patchSearch(ctx: Context, proto: Record<PropertyKey, AnyFn>, owner: string): void {
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
  override(ctx, proto, owner, 'indexOf', (self, [x, from], fn, what) =>
    lengthOf(self) === 0 ? -1 : scan(self, relative(from, lengthOf(self), 0), 1, fn, what, (v) => v === x),
  );
  override(ctx, proto, owner, 'includes', (self, [x, from], fn, what) =>
    lengthOf(self) === 0
      ? false
      : scan(self, relative(from, lengthOf(self), 0), 1, fn, what, (v) => sameValueZero(v, x)) >= 0,
  );
  override(ctx, proto, owner, 'lastIndexOf', (self, args, fn, what) => {
    const len = lengthOf(self);
    if (len === 0) return -1;
    const n = args.length > 1 ? integer(args[1]) : len - 1;
    const k = n >= 0 ? Math.min(n, len - 1) : len + n;
    return scan(self, k, -1, fn, what, (v) => v === args[0]);
  });
}

function patchBuffer(ctx: Context): void {
  // Buffer.from(view) copies a TypedArray's elements (Buffer.from(view.buffer) shares memory: not a read)
  const from = Buffer.from as AnyFn;
  const bufferFrom = function (this: unknown, value: unknown, ...rest: unknown[]): unknown {
    if (ctx.shared(value)) {
      const v = value as Int8Array;
      checkElements(ctx, v, 0, v.length, 0, 'Buffer.from', bufferFrom);
    }
    return Reflect.apply(from, this, [value, ...rest]);
  };
  replaceFunction(Buffer, 'from', bufferFrom);
  const proto = Buffer.prototype as unknown as Record<string, AnyFn>;
  patchBufferSearch(ctx, proto);
  const len = (b: Int8Array) => b.length;
  wrapMethod(ctx, proto, 'Buffer', 'toString', (self, [, start, end], fn, what) => {
    const from = Math.max(0, Math.min(integer(start), len(self)));
    const to = end === undefined ? len(self) : Math.max(from, Math.min(integer(end), len(self)));
    checkElements(ctx, self, from, to, 0, what, fn);
  });
  wrapMethod(ctx, proto, 'Buffer', 'write', (self, [string, offset, length, encoding], fn, what) => {
    let off = 0;
    let max = len(self);
    let enc = encoding;
    if (typeof offset === 'string') enc = offset;
    else {
      off = integer(offset);
      if (typeof length === 'string') enc = length;
      else if (length !== undefined) max = integer(length);
    }
    if (off < 0 || off > len(self)) return;
    const bytes = Math.min(Buffer.byteLength(String(string), enc as BufferEncoding), len(self) - off, max);
    checkElements(ctx, self, off, off + bytes, WRITE, what, fn);
  });
  wrapMethod(
    ctx,
    proto,
    'Buffer',
    'copy',
    (self, [target, targetStart, sourceStart, sourceEnd], fn, what) => {
      const t = target as Int8Array;
      const ts = integer(targetStart);
      const ss = integer(sourceStart);
      const se = sourceEnd === undefined ? len(self) : Math.min(integer(sourceEnd), len(self));
      const n = Math.min(se - ss, (t?.length ?? 0) - ts);
      if (n <= 0 || ts < 0 || ss < 0) return;
      if (ctx.shared(self)) checkElements(ctx, self, ss, ss + n, 0, what, fn);
      if (ctx.shared(t)) checkElements(ctx, t, ts, ts + n, WRITE, what, fn);
    },
    true,
  );
  // fill(value): a TypedArray value's first bytes are read, as many as fill the range (Node's bindingFill), shared
  // or not whatever `this` is
  wrapMethod(
    ctx,
    proto,
    'Buffer',
    'fill',
    (self, [value, offset, end], fn, what) => {
      const from = typeof offset === 'number' ? Math.max(0, integer(offset)) : 0;
      const to = typeof end === 'number' ? Math.min(integer(end), len(self)) : len(self);
      if (ctx.shared(value) && to > from) {
        const v = value as Int8Array;
        const n = Math.min(to - from, v.byteLength);
        if (n > 0)
          ctx.checkRange(v.buffer as SharedArrayBuffer, v.byteOffset, n, 0, ctx.callerSite(fn), what, fn);
      }
      if (ctx.shared(self)) checkElements(ctx, self, from, to, WRITE, what, fn);
    },
    true,
  );
  for (const name of ['equals', 'compare']) {
    wrapMethod(
      ctx,
      proto,
      'Buffer',
      name,
      (self, [other], fn, what) => {
        if (ctx.shared(self)) checkElements(ctx, self, 0, len(self), 0, what, fn);
        if (ctx.shared(other))
          checkElements(ctx, other as Int8Array, 0, (other as Int8Array).length, 0, what, fn);
      },
      true,
    );
  }
  const sizeOf = (name: string): number => {
    if (/Int8$/.test(name)) return 1;
    if (/Int16/.test(name)) return 2;
    if (/Int32|Float/.test(name)) return 4;
    if (/Double|BigU?Int64/.test(name)) return 8;
    return 0; // readIntLE(offset, byteLength) and the like: the size is an argument
  };
  for (const name of Object.getOwnPropertyNames(Buffer.prototype)) {
    const m = /^(read|write)(U?Int|Int|Float|Double|BigU?Int|BigInt)/.exec(name);
    if (!m) continue;
    const write = m[1] === 'write';
    const fixed = sizeOf(name);
    wrapMethod(ctx, proto, 'Buffer', name, (self, args, fn, what) => {
      const off = args[write ? 1 : 0] === undefined ? 0 : integer(args[write ? 1 : 0]);
      const size = fixed || integer(args[write ? 2 : 1]);
      if (off >= 0 && size > 0 && off + size <= len(self))
        checkElements(ctx, self, off, off + size, write ? WRITE : 0, what, fn);
    });
  }
}

/**
 * `Buffer.prototype` indexOf, lastIndexOf and includes (a shared `this` or a shared Buffer or Uint8Array value): the
 * native search reads the bytes a scan from the start offset (Node's `IndexOfOffset`, src/node_buffer.cc) up to
 * the end of the match reads — backwards for lastIndexOf — or to the end of the buffer when there is no match, and
 * the whole value. Which bytes those are depends on where the match is, so the original search runs first and the
 * check follows before its result is returned: a racy read's value never reaches the program, but unlike the other
 * patches the read itself has happened when `throw` stops the program. includes is indexOf's result `!== -1`, as in
 * Node (whose includes calls `this.indexOf`).
 */
function patchBufferSearch(ctx: Context, proto: Record<string, AnyFn>): void {
  const indexOf = proto.indexOf;
  const lastIndexOf = proto.lastIndexOf;
  /** The byte length of search value `value` (lib/buffer.js bidirectionalIndexOf). */
  const needleLength = (value: unknown, encoding: unknown): number => {
    if (typeof value === 'number') return 1;
    if (typeof value === 'string') return Buffer.byteLength(value, encoding as BufferEncoding);
    return (value as Uint8Array).byteLength;
  };
  /** The start of the search (lib/buffer.js bidirectionalIndexOf, then IndexOfOffset), or -1: none. */
  const startOf = (len: number, byteOffset: unknown, n: number, forward: boolean): number => {
    let off = typeof byteOffset === 'string' ? Number.NaN : Number(byteOffset);
    if (Number.isNaN(off)) off = forward ? 0 : len;
    off = Math.trunc(Math.min(Math.max(off, -0x80000000), 0x7fffffff));
    if (off < 0) return off + len >= 0 ? len + off : forward || n === 0 ? 0 : -1;
    if (off + n <= len) return off;
    return n === 0 ? len : forward ? -1 : len - 1;
  };
  const search = (name: 'indexOf' | 'lastIndexOf' | 'includes', forward: boolean) =>
    override(
      ctx,
      proto,
      'Buffer',
      name,
      (self, args, fn, what) => {
        const [value, byteOffset, encoding] = args;
        const p = Reflect.apply(forward ? indexOf : lastIndexOf, self, args) as number;
        const sharedValue = ctx.shared(value);
        if (ctx.shared(self) || sharedValue) {
          const enc = typeof byteOffset === 'string' ? byteOffset : (encoding ?? 'utf8');
          const n = needleLength(value, enc);
          const len = lengthOf(self);
          const o = startOf(len, byteOffset, n, forward);
          if (ctx.shared(self) && o >= 0 && n > 0 && len > 0) {
            const site = ctx.callerSite(fn);
            if (forward) checkElements(ctx, self, o, p >= 0 ? p + n : len, 0, what, fn, site);
            else checkElements(ctx, self, Math.max(p, 0), Math.min(len, o + n), 0, what, fn, site);
          }
          if (sharedValue) checkAll(ctx, value as Int8Array, 0, what, fn);
        }
        return name === 'includes' ? p !== -1 : p;
      },
      true,
    );
  search('indexOf', true);
  search('lastIndexOf', false);
  search('includes', true);
}

/**
 * `Object.values`, `Object.entries` (read every element of a shared view, ECMA-262 §20.1.2.22, §20.1.2.5) and
 * `Object.assign` (§20.1.2.1): given a shared view as target or source, it runs as the spec's loop, each element
 * of a source checked right before it is read and each element of the target right before it is written (keys
 * that name no element touch no memory). `Reflect.construct` of a TypedArray constructor (or subclass) with a
 * shared view as first argument reads all of it, like `new` (§23.2.5.1).
 */
function patchObject(ctx: Context): void {
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
        check(to, key, WRITE);
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
function patchJson(ctx: Context): void {
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
function patchInspect(ctx: Context): void {
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

/** Patches `TextDecoder#decode`, `TextEncoder#encodeInto` and `StringDecoder#write`; returns the patched three. */
function patchText(ctx: Context): readonly AnyFn[] {
  const decoder = TextDecoder.prototype as unknown as Record<string, AnyFn>;
  const decode = decoder.decode;
  const decodeFn = function (this: TextDecoder, input?: unknown, ...rest: unknown[]): unknown {
    if (input instanceof SharedArrayBuffer) {
      ctx.checkRange(input, 0, input.byteLength, 0, ctx.callerSite(decodeFn), 'TextDecoder#decode', decodeFn);
    } else if (ArrayBuffer.isView(input) && input.buffer instanceof SharedArrayBuffer) {
      ctx.checkRange(
        input.buffer,
        input.byteOffset,
        input.byteLength,
        0,
        ctx.callerSite(decodeFn),
        'TextDecoder#decode',
        decodeFn,
      );
    }
    return decode.call(this, input, ...rest);
  };
  decoder.decode = decodeFn as AnyFn;
  const encoder = TextEncoder.prototype as unknown as Record<string, AnyFn>;
  const encodeInto = encoder.encodeInto;
  const encodeIntoFn = function (this: TextEncoder, src: unknown, dest: Uint8Array): unknown {
    if (ctx.shared(dest)) {
      const probe = encodeInto.call(this, src, new Uint8Array(dest.length)) as { written: number };
      checkElements(ctx, dest, 0, probe.written, WRITE, 'TextEncoder#encodeInto', encodeIntoFn);
    }
    return encodeInto.call(this, src, dest);
  };
  encoder.encodeInto = encodeIntoFn as AnyFn;
  // Node's string_decoder: `end(buf)` calls `this.write(buf)`, whose caller is then the first frame outside Node
  const stringDecoder = StringDecoder.prototype as unknown as Record<string, AnyFn>;
  const write = stringDecoder.write;
  const writeFn = function (this: StringDecoder, buf: unknown, ...rest: unknown[]): unknown {
    if (ctx.shared(buf))
      checkAll(ctx, buf as Uint8Array, 0, 'StringDecoder#write', writeFn, ctx.callerSite(writeFn, true));
    return write.call(this, buf, ...rest);
  };
  replaceFunction(stringDecoder, 'write', writeFn as AnyFn);
  // on an input (or encodeInto's destination) that is a TypedArray not over shared memory these call their
  // originals as they are
  originals.set(decodeFn as AnyFn, { original: decode, argument: 0 });
  originals.set(encodeIntoFn as AnyFn, { original: encodeInto, argument: 1 });
  originals.set(writeFn as AnyFn, { original: write, argument: 0 });
  return [decodeFn, encodeIntoFn, writeFn] as AnyFn[];
}
