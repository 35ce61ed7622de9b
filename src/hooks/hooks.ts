/**
 * The hooks contract between instrumented code (`../instrument/instrument.ts`) and the detector runtime.
 *
 * One frozen {@link Hooks} object per thread and runtime lives at `globalThis.__goldilocks` (non-writable,
 * non-enumerable), installed by `../node/register.ts` before any user module runs. Instrumented code calls it directly;
 * the **runtime** (the detector) sits behind it and is reached only for accesses to typed arrays over a
 * `SharedArrayBuffer`: everything else is answered by the hooks themselves with the plain access.
 *
 * A runtime is a {@link Runtime}: `get(o, k, site)` and `set(o, k, v, site)` where `o` is an integer-indexed exotic
 * object (ECMA-262 §10.4.5, a TypedArray) whose `[[ViewedArrayBuffer]]` is a SharedArrayBuffer, `k` the key as
 * evaluated (not yet converted by ToPropertyKey), `site` a site id. `get` returns the value read, `set` performs the
 * write and returns `v`. Either may throw (a `DataRaceException`) *before* performing the access. A runtime resolves
 * a site id to its source with {@link Hooks.siteLocation}.
 *
 * Runtimes are installed with {@link installRuntime} (from register, before user code; later calls replace the
 * previous runtime). Until then the {@link passthrough} runtime performs plain accesses. Register loads a runtime
 * module named by the environment variable `GOLDILOCKS_RUNTIME` (a path or file URL; tests use it to install a
 * recording runtime), otherwise `./detector.js`; such a module's default export is a {@link RuntimeFactory}.
 */

import { isProxy } from 'node:util/types';
import type { Worker, WorkerOptions } from 'node:worker_threads';

/** Where a site is: `file` a file URL or path (as the module was loaded), 1-based `line` and `column` (UTF-16). */
export interface SiteLocation {
  file: string;
  line: number;
  column: number;
}

/** The detector behind the hooks; see the file header for the exact contract. */
export interface Runtime {
  get(o: ArrayBufferView, k: unknown, site: number): unknown;
  set(o: ArrayBufferView, k: unknown, v: unknown, site: number): unknown;
  /**
   * The fast path of a read (`r`) or write (`w`) of `o[k]` at site `i` of module `m`, where `o` is a view that is
   * not `c`, the site's cache (see {@link Hooks.r}): returns true when the site must call {@link Hooks.get} /
   * {@link Hooks.set} instead (keys that are not numbers); otherwise the site performs the access itself and
   * stores the answer as its cache: `o` when it is not over shared memory (the site then skips `r` for it), else
   * `c` (after checking the access). Throws, like `get`/`set`, before the access.
   * Optional: without them every view over shared memory goes through `get`/`set`.
   */
  r?(o: ArrayBufferView, k: unknown, m: SiteFunction, i: number, c: unknown): unknown;
  w?(o: ArrayBufferView, k: unknown, m: SiteFunction, i: number, c: unknown): unknown;
  /**
   * A read of every element of `o` (a TypedArray over shared memory) at `site`: the copy a TypedArray constructor
   * makes of it (ECMA-262 §23.2.5.1.2 InitializeTypedArrayFromTypedArray). Throws before the copy, like `get`.
   * Optional: without it the copy is not checked.
   */
  readAll?(o: ArrayBufferView, site: number): void;
  /**
   * A read, at `site`, of the elements `keys` (integer indices; those ≥ the length are not elements) of `o` (a
   * TypedArray over shared memory), or of all of them when `keys` is undefined: object destructuring with those
   * literal keys, or object spread and rest (CopyDataProperties, ECMA-262 §7.3.25). Throws before the reads, like
   * `get`. Optional: without it they are not checked.
   */
  readElements?(o: ArrayBufferView, site: number, keys?: readonly number[]): void;
  /**
   * The methods the runtime observes on receivers that are not views (its `TextDecoder#decode`,
   * `TextEncoder#encodeInto`, `StringDecoder#write`), at most {@link MAX_SITED_METHODS}: rewritten calls of them
   * carry their site ({@link Hooks.callee}). Optional: without it only calls of a view's built-in methods on views
   * do.
   */
  sitedMethods?: readonly unknown[];
  /**
   * The runtime's replacements of view methods, of `Atomics` functions and of its {@link sitedMethods}, each with
   * the original it replaced and the index of the one argument through which it may also touch shared memory:
   * `argument` 0 for `TypedArray#set`'s source, `Buffer#copy`'s target, an `Atomics` function's typed array,
   * `TextDecoder#decode`'s input; 1 for `TextEncoder#encodeInto`'s destination; none for a view method that touches
   * nothing but its receiver. On a receiver that is not over shared memory, and such an argument that is not either
   * (for a sited method: a TypedArray that is not), the replacement does what the original does, so a rewritten
   * call of it there calls the original ({@link Hooks.callee}, {@link Hooks.atomics}), where the rewriter evaluated
   * that argument apart ({@link TESTED_ARGUMENT}). Optional: without it such calls go through {@link Hooks.sited}
   * and {@link Hooks.atomicsRest}'s path.
   */
  originals?: ReadonlyMap<unknown, { readonly original: unknown; readonly argument?: number }>;
  /** Called by register's `Worker` around each worker's construction in this thread. */
  worker?: WorkerHooks;
}

/**
 * Worker construction as the runtime sees it: `beforeSpawn(options)` right before the original constructor runs,
 * then `afterSpawn(worker)` once it returned (the worker exists and has its `threadId`), or `spawnFailed()` when it
 * threw.
 */
export interface WorkerHooks {
  beforeSpawn(options: WorkerOptions | undefined): void;
  afterSpawn(worker: Worker): void;
  spawnFailed(): void;
}

/**
 * The hooks without the fields made from the installed runtime ({@link installRuntime} makes those when it
 * publishes them): what a runtime is made with.
 */
export type ThreadHooks = Omit<Hooks, 'r' | 'w' | 'callee' | 'callee1' | 'direct' | 'atomics'>;

/** Default export of a runtime module: called once per thread with that thread's hooks. */
export type RuntimeFactory = (hooks: ThreadHooks) => Runtime;

/**
 * A module's site function: `__gl$m`, appended by the rewriter. Called, it returns `[file, [line1, col1, line2,
 * col2, ...]]`; `m.$b` holds the module's base site id once registered.
 */
export interface SiteFunction {
  (): [string, number[]];
  $b?: number;
}

/** A rewritten method call that carries its site: see {@link Hooks.site}. */
export interface SitedCall {
  readonly m: SiteFunction;
  readonly i: number;
  readonly text: string;
  readonly o: unknown;
  readonly f: unknown;
}

/** A one-shot assignment target (destructuring or for-in/of head); assigning `v` performs the write. */
export interface Reference {
  v: unknown;
}

/** The `Atomics` functions whose calls `Atomics.name(...)` the rewriter gives a static site ({@link Hooks.atomics}). */
export const ATOMIC_OPS = [
  'load',
  'store',
  'add',
  'sub',
  'and',
  'or',
  'xor',
  'exchange',
  'compareExchange',
  'wait',
  'waitAsync',
  'notify',
] as const;

/** The most arguments an `Atomics` function of {@link ATOMIC_OPS} takes (`compareExchange`, `wait`, `waitAsync`). */
export const ATOMIC_ARITY = 4;

/** The object at `globalThis.__goldilocks`. */
export interface Hooks {
  /** `ArrayBuffer.isView` as it was at startup (ECMA-262 §25.1.5.1). */
  readonly isView: (o: unknown) => boolean;
  /** Is `o` a TypedArray whose buffer is a SharedArrayBuffer (DataViews are not: they have no elements)? */
  readonly shared: (o: unknown) => boolean;
  /**
   * `peek(o, p)`: the value of `o[p]` if reading it runs no code and it is not a view over shared memory ({@link
   * shared}), else a fresh object no other code holds. Reading runs no code when `o` is an object whose prototype
   * chain up to the first object with an own `p` holds no Proxy and that `p` is a data property (ECMA-262
   * §10.1.8.1 OrdinaryGet; no getter, no trap runs). The member loop guards of `../instrument/instrument.ts` compare an access's
   * object with it: equal means not shared, whatever happened to `o[p]` since.
   */
  readonly peek: (o: unknown, p: string) => unknown;
  /** Registers a module's sites (`locs` = line, column pairs); returns the id of its first site, ids are dense. */
  readonly sites: (file: string, locs: readonly number[]) => number;
  /** The location of site `id`. @throws RangeError for an id that was never registered in this thread. */
  readonly siteLocation: (id: number) => SiteLocation;
  /** The global id of site `i` of module `m` (registering the module's sites on first use). */
  readonly siteId: (m: SiteFunction, i: number) => number;
  /**
   * Per name of {@link ATOMIC_OPS}: `atomicsRest.add(m, i, ...args)` is the rewritten `Atomics.add(...args)` at site
   * `i` of module `m`: it calls the current `Atomics.add` with `args`, the site pending meanwhile with that function
   * as {@link pendingCallee} (so the runtime need not capture a stack to name it).
   */
  readonly atomicsRest: Readonly<
    Record<(typeof ATOMIC_OPS)[number], (m: SiteFunction, i: number, ...args: unknown[]) => unknown>
  >;
  /**
   * {@link atomicsRest} for a call with at most {@link ATOMIC_ARITY} arguments and no spread (`arguments.length`
   * says how many it had): where the current `Atomics.add` is still the runtime's replacement and the first
   * argument is not a view over shared memory, it calls the original the runtime replaced ({@link
   * Runtime.originals}) directly, without the pending site, at the cost of a test (bench:instrument, `Atomics.add`
   * not shared).
   */
  readonly atomics: Readonly<
    Record<
      (typeof ATOMIC_OPS)[number],
      (m: SiteFunction, i: number, ta?: unknown, a?: unknown, b?: unknown, c?: unknown) => unknown
    >
  >;
  /**
   * For the rewritten call `o.name(...)` (`name` the `k`th of {@link OBSERVED_METHODS}, `f` = `o.name`) whose first
   * argument is not evaluated apart (there is none, or it is a spread): the function to call with `this` = `o`, or
   * null when the call is to go through {@link site} and {@link sited}. Null when `f` is not a function, is one of
   * the runtime's {@link Runtime.sitedMethods}, or is a method a built-in view reaches by that name called on a view
   * over shared memory (or on any view, unless the runtime gave its original: {@link Runtime.originals}, and on
   * any view when it may touch shared memory through its first argument); that original on a view that is not over
   * shared memory (on any receiver not over shared memory, for a method of {@link direct}); else `f`. The methods
   * are compared by identity, name by name, so that V8 folds the whole test
   * where `f` is a constant (a class's own `set`; not a method loaded from a view, such as `Buffer#readUInt32LE`,
   * whose load V8 does not fold, exploratory); the last two views found not over shared
   * memory are kept, so a loop over them compares with them. Runs no user code.
   */
  readonly callee: (o: unknown, f: unknown, k: number) => unknown;
  /**
   * {@link callee} for a call whose argument `a` was evaluated apart (`o.name(a, ...)`, or `o.name(x, a, ...)` for a
   * name whose {@link TESTED_ARGUMENT} is 1): a method that may touch shared memory through that argument
   * ({@link Runtime.originals}) gets its original too when `a` is not a view over shared memory.
   */
  readonly callee1: (o: unknown, f: unknown, k: number, a: unknown) => unknown;
  /**
   * Per index `k` of {@link OBSERVED_METHODS}: the original the runtime gave ({@link Runtime.originals}) for the
   * first built-in view method of that name (a TypedArray's, else a Buffer's) when that method touches shared memory
   * through its receiver alone, else undefined; frozen. {@link callee} returns it for that method on any receiver
   * not over shared memory (a view or not: the replacement does what its original does there), testing it first. A
   * rewritten call of one of {@link BUFFER_ACCESSORS} calls `direct[k]` itself where `callee` returned it: the same
   * function, `this` and arguments, through a constant V8 inlines (bench:instrument, `Buffer#readUInt32LE`).
   */
  readonly direct: readonly unknown[];
  /** `Function.prototype.call` (ECMA-262 §20.2.3.3) as it was at startup, uncurried: `call(f, t, ...args)`. */
  readonly call: (f: unknown, t: unknown, ...args: unknown[]) => unknown;
  /**
   * The record of the rewritten call `o.name(...)` at site `i` of module `m`, `text` its callee as written (`o.name`)
   * and `f` = `o.name`, for {@link sited}.
   */
  readonly site: (m: SiteFunction, i: number, text: string, o: unknown, f: unknown) => SitedCall;
  /**
   * Called with `this` a {@link site} record and the call's arguments (evaluated in the call's own order: the
   * object, the property, then the arguments): calls `f` with `this` = `o`, its site pending meanwhile with `f` as
   * {@link pendingCallee}, so the runtime's patched methods need not capture a stack to name their caller. When `f`
   * is not a function it throws the TypeError `${text} is not a function`, the message of the plain call.
   */
  readonly sited: (this: SitedCall, ...args: unknown[]) => unknown;
  /** The global site id of the rewritten `Atomics` call or method call running now, or -1. */
  readonly pendingSite: () => number;
  /** The function the rewritten `Atomics` call or method call running now called, or undefined. */
  readonly pendingCallee: () => unknown;
  /**
   * Before a read of `o[k]` at site `i` of module `m`, when `o` is a view other than `c`, the value of the site's
   * cache variable `__gl$c<i>`: the runtime's {@link Runtime.r}. The site stores the answer in its cache variable
   * and calls {@link get} when it is true, else reads `o[k]` itself.
   */
  readonly r: (o: ArrayBufferView, k: unknown, m: SiteFunction, i: number, c: unknown) => unknown;
  /** Before a write of `o[k]` at site `i` of module `m`: the runtime's {@link Runtime.w}, as {@link r}. */
  readonly w: (o: ArrayBufferView, k: unknown, m: SiteFunction, i: number, c: unknown) => unknown;
  /** Read `o[k]` at site `i` of module `m`: the runtime's `get` for shared views, else the plain read. */
  readonly get: (o: ArrayBufferView, k: unknown, m: SiteFunction, i: number) => unknown;
  /** Write `o[k] = v` at site `i` of module `m`; returns `v`. Plain writes have strict-mode semantics. */
  readonly set: (o: ArrayBufferView, k: unknown, v: unknown, m: SiteFunction, i: number) => unknown;
  /**
   * A reference to `o[k]` for an assignment target: `.v = x` writes (PutValue, ECMA-262 §6.2.5.6: TypeError for a
   * null or undefined `o`; a failed [[Set]] throws only when `strict`).
   */
  readonly ref: (o: unknown, k: unknown, m: SiteFunction, i: number, strict: boolean) => Reference;
  /**
   * The first argument `x` of `new C(x, ...)` at site `i` of module `m`, where `C` is `ctor` or, without `ctor`, a
   * TypedArray constructor named by its global name: when `x` is a TypedArray over shared memory and `C` a
   * TypedArray constructor or a subclass of one ({@link isTypedArrayConstructor}), the runtime's
   * {@link Runtime.readAll} checks the copy the constructor is about to make. Returns `x`.
   */
  readonly copied: (m: SiteFunction, i: number, x: unknown, ctor?: unknown) => unknown;
  /**
   * The value `x` that an object pattern with integer literal keys `keys` destructures, or that is spread into an
   * object literal or destructured by a pattern with a rest element (`keys` omitted: every element), at site `i` of
   * module `m`: when `x` is a TypedArray over shared memory, the runtime's {@link Runtime.readElements} checks the
   * reads. Returns `x`.
   */
  readonly elements: (m: SiteFunction, i: number, x: unknown, keys?: readonly number[]) => unknown;
}

/**
 * The names of `Buffer.prototype`'s number accessors (`readUInt32LE`, `writeDoubleBE`...: Node's lib/buffer.js),
 * a method no other built-in view has: a rewritten call of one of them compares the method it is to call with
 * {@link Hooks.direct} first.
 */
export const BUFFER_ACCESSORS: readonly string[] = Object.getOwnPropertyNames(Buffer.prototype).filter(
  (name) => /^(read|write)[A-Z]/.test(name),
);

/**
 * The method names whose calls `o.name(...)` the rewriter gives a site ({@link Hooks.sited}): those of the
 * built-in methods the runtime observes on shared views (`%TypedArray%.prototype` and `Array.prototype` range and
 * search methods, `Buffer.prototype`'s bulk methods and its `read…`/`write…` accessors, `TextDecoder#decode`,
 * `TextEncoder#encodeInto`, `StringDecoder#write`). Calls of any other name, and calls through
 * `call`/`apply`/`Reflect`, reach the runtime's patched methods too, which then find their caller from a stack
 * (about 10 µs a call). A name's index here is the `k` the rewritten call passes to {@link Hooks.callee}.
 */
export const OBSERVED_METHODS: readonly string[] = [
  ...[
    'set',
    'fill',
    'copyWithin',
    'slice',
    'at',
    'with',
    'reverse',
    'sort',
    'toReversed',
    'toSorted',
    'join',
  ],
  ...[
    'map',
    'forEach',
    'reduce',
    'reduceRight',
    'filter',
    'toLocaleString',
    'values',
    'entries',
    'flat',
    'flatMap',
  ],
  ...[
    'toSpliced',
    'find',
    'findIndex',
    'findLast',
    'findLastIndex',
    'every',
    'some',
    'indexOf',
    'lastIndexOf',
  ],
  ...['includes', 'toString', 'write', 'copy', 'equals', 'compare', 'toJSON', 'decode', 'encodeInto'],
  ...BUFFER_ACCESSORS,
];

/**
 * Per index `k` of {@link OBSERVED_METHODS}: the argument a rewritten call `o.name(...)` evaluates apart and gives
 * {@link Hooks.callee1}, the one through which the method of that name may touch shared memory: 1 for
 * `encodeInto` (`TextEncoder#encodeInto`'s destination), 0 for the others.
 */
export const TESTED_ARGUMENT: readonly number[] = Object.freeze(
  OBSERVED_METHODS.map((name) => (name === 'encodeInto' ? 1 : 0)),
);

/** The global names of the TypedArray constructors (ECMA-262 Table 71), whose `new` the rewriter gives a site. */
export const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

/** The runtime used until another is installed: plain reads and writes. */
export const passthrough: Runtime = {
  get: (o, k) => (o as unknown as Record<PropertyKey, unknown>)[k as PropertyKey],
  set: (o, k, v) => {
    (o as unknown as Record<PropertyKey, unknown>)[k as PropertyKey] = v;
    return v;
  },
};

const GLOBAL = '__goldilocks';
let runtime: Runtime = passthrough;

/** How many {@link Runtime.sitedMethods} {@link Hooks.callee} compares with. */
export const MAX_SITED_METHODS = 3;

/** The prototypes of the built-in views: a call `view.name(...)` reaches `name` along one of their chains. */
const VIEW_PROTOTYPES = [
  ...TYPED_ARRAYS.map((name) => (globalThis[name] as { prototype: object }).prototype),
  Buffer.prototype,
] as Record<string, unknown>[];

/**
 * {@link Hooks.callee} and {@link Hooks.callee1} for a runtime's {@link Runtime.sitedMethods} and
 * {@link Runtime.originals}, and the methods the built-in views reach now: a fixed number of comparisons with
 * constants, not a set lookup, so that V8 inlines them at each call site and folds them where the method is a
 * constant (bench:instrument, `get`/`set` methods). Where views reach more than two methods by one name, every call
 * of it on a view is sited.
 * @throws RangeError for more than {@link MAX_SITED_METHODS} methods.
 */
function calleeTests(
  methods: readonly unknown[],
  originals: NonNullable<Runtime['originals']>,
): Pick<Hooks, 'callee' | 'callee1' | 'direct'> {
  if (methods.length > MAX_SITED_METHODS)
    throw new RangeError(`goldilocks: at most ${MAX_SITED_METHODS} sited methods, not ${methods.length}`);
  const [a, b, c] = [...methods, UNKNOWN, UNKNOWN, UNKNOWN];
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
  const [ao, bo, co] = [a, b, c].map((m) => {
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
  }
  // per name, the first view method when the runtime gave its original and it touches shared memory through its
  // receiver alone: on any receiver not over shared memory it does what its original does (Runtime.originals)
  const dp = p.map((f, k) => (po[k] !== null && !pa[k] ? f : UNKNOWN));
  const direct = po.map((original, k) => (dp[k] !== UNKNOWN ? original : undefined));
  for (const table of [ao, bo, co, p, q, po, qo, pa, qa, any, dp, direct]) Object.freeze(table);
  const notShared = notSharedCache(shared);
  /** Is `o` a TypedArray whose buffer is not a SharedArrayBuffer (the last two found so are kept)? */
  const plainTypedArray = notSharedCache(
    (o) => toStringTag.call(o) === undefined || bufferOf.call(o) instanceof SAB,
  );
  /** Whether `f` is a function to call as it is whatever the receiver: no view's method, no sited one. */
  const plainMethod = (f: unknown, k: number): boolean =>
    typeof f === 'function' && f !== p[k] && f !== q[k] && any[k] !== true && f !== a && f !== b && f !== c;
  /**
   * The rest of {@link Hooks.callee}, for `f` a built-in view's method of this name: `f` on what is not a view, its
   * original on a view not over shared memory (with an argument `arg` that is not either, when it may touch shared
   * memory through it and `arg` is that argument: {@link TESTED_ARGUMENT}), else null; for a sited method, its
   * original when the runtime gave one and `arg` is the argument it may touch shared memory through and a
   * TypedArray not over shared memory, else null; for another `f` (not a function, or one of a name views reach
   * more than two methods by) null, but `f` of the last kind on what is not a view.
   */
  const pick = (o: unknown, f: unknown, k: number, arg: unknown, evaluated: boolean): unknown => {
    const atP = f === p[k];
    if (!atP && f !== q[k]) {
      const original = f === a ? ao[k] : f === b ? bo[k] : f === c ? co[k] : UNKNOWN;
      if (original !== UNKNOWN)
        return original !== null && evaluated && plainTypedArray(arg) ? original : null;
      return typeof f !== 'function' || isView(o) ? null : f;
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

/**
 * `!isShared(o)` for an `isShared` whose answer never changes for a value (a view never changes its buffer), keeping
 * the last two values it answered false for: asking again about them is one or two comparisons (a bulk method's
 * receiver and argument, a loop over one view).
 */
export function notSharedCache(isShared: (o: unknown) => boolean): (o: unknown) => boolean {
  let plain: unknown;
  let plain2: unknown;
  return (o) => {
    if (o === plain || o === plain2) return true;
    if (isShared(o)) return false;
    plain2 = plain;
    plain = o;
    return true;
  };
}

const uncurriedCall = Function.prototype.call.bind(Function.prototype.call) as Hooks['call'];

/** Without a fast path: shared views go to get/set, the others are cached at their site. */
const slow = (o: ArrayBufferView): unknown => shared(o) || o;

/**
 * Publishes `hooks` with the current runtime's fast paths at `globalThis.__goldilocks`. A new frozen object per
 * runtime, so that `__goldilocks.r` is a constant the JIT can inline at every site (a global property that is
 * defined once and a frozen object's property are both constants to V8: register publishes once per thread); the
 * global is replaced, not mutated, when another runtime is installed.
 */
function publish(hooks: ThreadHooks): Hooks {
  const runtimeFields: Omit<Hooks, keyof ThreadHooks> = {
    r: runtime.r ?? slow,
    w: runtime.w ?? slow,
    ...calleeTests(runtime.sitedMethods ?? [], runtime.originals ?? new Map()),
    atomics: atomicsHooks(runtime.originals ?? new Map()),
  };
  // no key in common, so each property is stored once: V8 tracks a field's constness per shape, and an overridden
  // one is no longer a constant, nor anything loaded through it
  const published: Hooks = Object.freeze({ ...hooks, ...runtimeFields });
  Object.defineProperty(globalThis, GLOBAL, {
    value: published,
    writable: false,
    enumerable: false,
    configurable: true,
  });
  return published;
}

let created: ThreadHooks | undefined;

/**
 * This thread's hooks, made on the first call, without publishing them: what a runtime is made with before
 * {@link installRuntime} publishes them once (a global defined twice is no longer a constant to V8, and neither is
 * anything loaded through it).
 */
export function threadHooks(): ThreadHooks {
  created ??= createHooks();
  return created;
}

/**
 * Makes `rt` the runtime behind this thread's hooks (its `r` and `w` are called without a `this`) and publishes them
 * at `globalThis.__goldilocks`. Call before user code: accesses already made are not replayed.
 */
export function installRuntime(rt: Runtime): void {
  runtime = rt;
  publish(threadHooks());
}

/**
 * Installs this thread's hooks at `globalThis.__goldilocks` and returns them; a second call returns the installed
 * object.
 */
export function installHooks(): Hooks {
  const existing = (globalThis as Record<string, unknown>)[GLOBAL];
  if (existing) return existing as Hooks;
  return publish(threadHooks());
}

// the built-ins as they were when this module loaded, before any user code
const isView = ArrayBuffer.isView;
const SAB = SharedArrayBuffer;
const TypedArray = Object.getPrototypeOf(Int8Array.prototype) as object;
const bufferOf = Object.getOwnPropertyDescriptor(TypedArray, 'buffer')!.get!;
const toStringTag = Object.getOwnPropertyDescriptor(TypedArray, Symbol.toStringTag)!.get!;
const shared = (o: unknown): boolean =>
  isView(o) && toStringTag.call(o) !== undefined && bufferOf.call(o) instanceof SAB;
const TypedArrayConstructor = Object.getPrototypeOf(Int8Array) as object;
const { getOwnPropertyDescriptor, getPrototypeOf } = Object;
/** What {@link Hooks.peek} answers when it cannot tell: equal to no value user code can hold. */
const UNKNOWN = Object.freeze(Object.create(null));
const peek = (o: unknown, p: string): unknown => {
  let x = o;
  while ((typeof x === 'object' && x !== null) || typeof x === 'function') {
    if (isProxy(x)) return UNKNOWN;
    let d: PropertyDescriptor | undefined;
    try {
      d = getOwnPropertyDescriptor(x, p);
    } catch {
      return UNKNOWN; // a module namespace's binding before its initialization
    }
    if (d !== undefined) return 'value' in d && !shared(d.value) ? d.value : UNKNOWN;
    x = getPrototypeOf(x);
  }
  return UNKNOWN;
};
const protoOf = Object.prototype.isPrototypeOf;

/**
 * Is `c` one of the TypedArray constructors (ECMA-262 §23.2.7) or a subclass of one (`class M extends Uint8Array`,
 * Node's `Buffer`)? A subclass is taken to pass its first argument on to the TypedArray constructor, as its default
 * constructor does (§15.7.14).
 */
export const isTypedArrayConstructor = (c: unknown): boolean =>
  typeof c === 'function' && protoOf.call(TypedArrayConstructor, c);

// the rewritten call running now: its module's site function and site index (resolved to an id only when asked),
// and the function it called; one per thread, as the hooks are
let pendingM: SiteFunction | undefined;
let pendingI = -1;
let pendingCallee: unknown;

/** Calls `f` with `this` = `o` and `args`, site `i` of module `m` pending meanwhile (see {@link Hooks.sited}). */
function callSited(
  m: SiteFunction,
  i: number,
  text: string,
  o: unknown,
  f: unknown,
  args: unknown[],
): unknown {
  if (typeof f !== 'function') throw new TypeError(`${text} is not a function`);
  // a rewritten call made while evaluating this one's arguments, or inside it, restores these
  const outerM = pendingM;
  const outerI = pendingI;
  const outerCallee = pendingCallee;
  pendingM = m;
  pendingI = i;
  pendingCallee = f;
  try {
    return Reflect.apply(f, o, args);
  } finally {
    pendingM = outerM;
    pendingI = outerI;
    pendingCallee = outerCallee;
  }
}

const AtomicsObject = Atomics as unknown as Record<string, unknown>;

const atomicsRest = Object.freeze(
  Object.fromEntries(
    ATOMIC_OPS.map((name) => [
      name,
      (m: SiteFunction, i: number, ...args: unknown[]): unknown =>
        callSited(m, i, `Atomics.${name}`, Atomics, AtomicsObject[name], args),
    ]),
  ),
) as Hooks['atomicsRest'];

/**
 * {@link Hooks.atomics} for a runtime's {@link Runtime.originals}: per name, a function of fixed parameters (so that
 * the call on memory that is not shared allocates no argument array) that calls the original where the current
 * `Atomics` function is the runtime's replacement (as it was at this call) and its first argument is not a view over
 * shared memory, else goes sited with the arguments it was given (`arguments.length`).
 */
function atomicsHooks(originals: NonNullable<Runtime['originals']>): Hooks['atomics'] {
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
    shared,
    peek,
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
