/**
 * The hooks contract between instrumented code (`../instrument/`) and the detector runtime.
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
 * Runtimes are installed with `installRuntime` (`./install.ts`; from register, before user code; later calls
 * replace the previous runtime). Until then the `passthrough` runtime (`./thread.ts`) performs plain accesses.
 * Register loads a runtime module named by the environment variable `GOLDILOCKS_RUNTIME` (a path or file URL; tests use it to install a
 * recording runtime), otherwise `../live/runtime.ts`; such a module's default export is a {@link RuntimeFactory}.
 *
 * The files of this folder: this contract (types only); `./names.ts`, the tables of names the rewriter and the
 * runtime agree on; `./views.ts`, the tests of views on the built-ins as they were at startup; `./callee.ts` and
 * `./atomics.ts`, the dispatch of rewritten method and `Atomics` calls (hot: shaped so that V8 inlines them);
 * `./thread.ts`, this thread's hooks object and the sited call; `./install.ts`, installing a runtime and publishing
 * the hooks.
 */

import type { Worker, WorkerOptions } from 'node:worker_threads';
import type { ATOMIC_OPS } from './names.js';

/** Where a site is: `file` a file URL or path (as the module was loaded), 1-based `line` and `column` (UTF-16). */
export interface SiteLocation {
  file: string;
  line: number;
  column: number;
}

/** The range check of a loop: {@link Hooks.span}'s arguments, true when the loop may run its plain accesses. */
export type SpanCheck = (
  m: SiteFunction,
  lo: number,
  hi: number,
  step: number,
  inclusive: number,
  ints: readonly unknown[],
  list: readonly unknown[],
) => boolean;

/**
 * The cover check of a covered loop: {@link Hooks.covered}'s arguments (those of {@link SpanCheck}), one bit per
 * access of the list, set when the access may run plain.
 */
export type CoverCheck = (...args: Parameters<SpanCheck>) => number;

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
   * The range check of a loop (`../instrument/ranges.ts`), see {@link Hooks.span}: true when every access the loop
   * will make was checked and recorded as its per-access checks would have, so the loop may run its plain accesses;
   * false (nothing recorded) sends them to their per-access checks. Throws nothing. Optional: without it, false.
   */
  span?: SpanCheck;
  /**
   * The cover check of a covered loop (`../instrument/ranges.ts`), see {@link Hooks.covered}: bit k set when every
   * element the k-th access of the list may touch was checked by this thread in its current epoch, for its kind (the
   * same-epoch filter's covered runs, `../live/cover.ts`), so that its per-access check would record nothing and
   * report nothing. Records nothing, throws nothing. Optional: without it, 0.
   */
  covered?: CoverCheck;
  /**
   * This thread's count of synchronization operations, in `n` (the runtime increments it at each of them, before
   * the operation, and never wraps it): a covered loop that runs code the rewriter cannot see (a property write, a
   * call) tests it after each such operation to know that its epoch, and with it its cover, still holds (see {@link
   * Hooks.syncs}). Optional: without it, a cell whose `n` is NaN, so that the test always fails.
   */
  syncs?: { readonly n: number };
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
   * `x`, the value of `new SharedArrayBuffer(...)` or `new WebAssembly.Memory(...)` at `site` (`Hooks.allocated`):
   * where the memory was made, named in race reports. Optional: without it reports name no allocation site.
   */
  allocated?(x: unknown, site: number): void;
  /**
   * The methods the runtime observes on receivers that are not views (its `TextDecoder#decode`,
   * `TextEncoder#encodeInto`, `StringDecoder#write`), at most `MAX_SITED_METHODS` (`./callee.ts`): rewritten calls of them
   * carry their site ({@link Hooks.callee}). Optional: without it only calls of a view's built-in methods on views
   * do.
   */
  sitedMethods?: readonly unknown[];
  /**
   * Sited methods the runtime learns after it is installed, when the program loads the library that defines them
   * (`goldilocks/stm`'s `STM#atomic`, `../live/stm-observer.ts`), so that the runtime loads no library itself: a
   * rewritten call of one of `names` (of `OBSERVED_METHODS`) whose method is then in `methods` carries its site, as a
   * call of one of {@link sitedMethods} does; the runtime adds each method to `methods` before the library's code
   * can call it. Their rewritten calls test `methods` on the way to the method, every other name's calls nothing
   * more ({@link Hooks.callee}). Optional: without it only {@link sitedMethods} are sited.
   */
  sitedLater?: { readonly names: readonly string[]; readonly methods: ReadonlySet<unknown> };
  /**
   * The runtime's replacements of view methods, of `Atomics` functions and of its {@link sitedMethods}, each with
   * the original it replaced and the index of the one argument through which it may also touch shared memory:
   * `argument` 0 for `TypedArray#set`'s source, `Buffer#copy`'s target, an `Atomics` function's typed array,
   * `TextDecoder#decode`'s input; 1 for `TextEncoder#encodeInto`'s destination; none for a view method that touches
   * nothing but its receiver. On a receiver that is not over shared memory, and such an argument that is not either
   * (for a sited method: a TypedArray that is not), the replacement does what the original does, so a rewritten
   * call of it there calls the original ({@link Hooks.callee}, {@link Hooks.atomics}), where the rewriter evaluated
   * that argument apart (`TESTED_ARGUMENT`). A replacement of an `Atomics` function reads its arguments as
   * parameters, as the built-ins do (ECMA-262 §25.4), so that {@link Hooks.atomics} calls it with four, a missing one
   * undefined, and no argument array. Optional: without it such calls go through {@link Hooks.sited}
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
 * The hooks without the fields made from the installed runtime (`installRuntime` makes those when it
 * publishes them): what a runtime is made with.
 */
export type ThreadHooks = Omit<
  Hooks,
  'r' | 'w' | 'span' | 'covered' | 'syncs' | 'callee' | 'callee1' | 'direct' | 'atomics' | 'typedIteration'
>;

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

/** The object at `globalThis.__goldilocks`. */
export interface Hooks {
  /** `ArrayBuffer.isView` as it was at startup (ECMA-262 §25.1.5.1). */
  readonly isView: (o: unknown) => boolean;
  /**
   * Is `o` a TypedArray (not a DataView, nor a Proxy of one)? Then reading or writing `o[k]`, `k` a number, runs no
   * code (ECMA-262 §10.4.5.4, §10.4.5.5: a numeric key never reaches the prototype chain). The range checks of loops
   * with rows or member views, or reading a variable other code could assign (`../instrument/ranges.ts` `typed`),
   * test each of the loop's views with it as it is entered.
   */
  readonly typedArray: (o: unknown) => boolean;
  /** Is `o` a TypedArray whose buffer is a SharedArrayBuffer (DataViews are not: they have no elements)? */
  readonly shared: (o: unknown) => boolean;
  /**
   * `peek(o, p)`: the value of `o[p]` if reading it runs no code and it is not a view over shared memory ({@link
   * shared}), else a fresh object no other code holds. Reading runs no code when `o` is an object whose prototype
   * chain up to the first object with an own `p` holds no Proxy and that `p` is a data property (ECMA-262
   * §10.1.8.1 OrdinaryGet; no getter, no trap runs). The member loop guards of `../instrument/loops.ts` compare an
   * access's object with it: equal means not shared, whatever happened to `o[p]` since.
   */
  readonly peek: (o: unknown, p: string) => unknown;
  /**
   * `row(o, k)`: the value of `o[k]` (`k` a number, or a property's name) if reading it runs no code (as {@link
   * peek}: no Proxy on the prototype chain up to the first object with an own `k`, a data property) and `o` is not a
   * view, else null. The range checks of `../instrument/ranges.ts` read with it, as their loop is entered, each row
   * `X[e]` of a matrix held as an array of views that the loop accesses as `X[e][j]` (`e` without the loop's
   * variable), and each member view `O.p` it accesses as `O.p[j]` (`../instrument/member-views.ts`, `k` = "p"); null
   * sends the loop to its per-access checks.
   */
  readonly row: (o: unknown, k: number | string) => unknown;
  /**
   * `pure(() => o, ...names)`: whether {@link peek}`(o, p)` is one of the `Math` functions of `PURE_MATH` or the
   * `Number` predicates of `PURE_NUMBER` (`./names.ts`) as they were at startup, for each `p` of `names`: a call of it
   * on numbers runs no other code.
   * False when reading `o` throws (a binding in its temporal dead zone or undeclared: the loop may run no iteration,
   * and the plain program would then not read it). The range checks of `../instrument/ranges.ts` test each object
   * `M` whose functions `M.f` their loop calls with it as the loop is entered.
   */
  readonly pure: (object: () => unknown, ...names: string[]) => boolean;
  /**
   * `declared(read)`: whether `read()` (reads of variables) returns without throwing: the bindings it reads are out
   * of their temporal dead zone (ECMA-262 §9.1.1.1). The range checks of `../instrument/ranges.ts` test with it, as
   * their loop is entered, the `let`s and `const`s of enclosing functions their loop reads (`../instrument/scope.ts`
   * `capturedBinding`); false sends the loop to its per-access checks, which throw where the plain code throws.
   */
  readonly declared: (read: () => unknown) => boolean;
  /**
   * `fixedLength(o)`: is `o` a TypedArray over a SharedArrayBuffer that cannot grow (ECMA-262 §25.2.2: its length
   * never changes) whose `o.length` runs only the built-in getter of `%TypedArray%.prototype` (§23.2.3.21)? A
   * range-checked loop bounded by `V.length` (`../instrument/ranges.ts`) tests it as it is entered: false sends the
   * loop to its per-access checks.
   */
  readonly fixedLength: (o: unknown) => boolean;
  /**
   * `typedIteration(o)`: is `o` a TypedArray whose iteration is the built-in one (`o[Symbol.iterator]` is
   * `%TypedArray%.prototype.values` as at startup or the runtime's replacement of it, read without running code;
   * %ArrayIteratorPrototype%.next as at startup; `o.length` the built-in getter): then `for (const x of o)` reads
   * the elements at 0, 1, ... while below `o.length`, read at each step, running no other code (ECMA-262 §23.1.5.2.1).
   * A `for…of` loop's range check (`../instrument/for-of.ts`) tests it as the loop is entered: false runs the loop
   * as written, its elements checked one by one by the runtime's iterator.
   */
  readonly typedIteration: (o: unknown) => boolean;
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
   * {@link atomicsRest} for a call with at most `ATOMIC_ARITY` arguments and no spread (`arguments.length`
   * says how many it had): where the current `Atomics.add` is still the runtime's replacement and the first
   * argument is not a view over shared memory, it calls the original the runtime replaced ({@link
   * Runtime.originals}) directly, without the pending site, at the cost of a test (bench:instrument, `Atomics.add`
   * not shared); on shared memory it calls the replacement with the site pending and four arguments.
   */
  readonly atomics: Readonly<
    Record<
      (typeof ATOMIC_OPS)[number],
      (m: SiteFunction, i: number, ta?: unknown, a?: unknown, b?: unknown, c?: unknown) => unknown
    >
  >;
  /**
   * For the rewritten call `o.name(...)` (`name` the `k`th of `OBSERVED_METHODS` in `./names.ts`, `f` = `o.name`) whose first
   * argument is not evaluated apart (there is none, or it is a spread): the function to call with `this` = `o`, or
   * null when the call is to go through {@link site} and {@link sited}. Null when `f` is not a function, is one of
   * the runtime's {@link Runtime.sitedMethods} or {@link Runtime.sitedLater}, or is a method a built-in view reaches by that name called on a view
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
   * name whose `TESTED_ARGUMENT` is 1): a method that may touch shared memory through that argument
   * ({@link Runtime.originals}) gets its original too when `a` is not a view over shared memory.
   */
  readonly callee1: (o: unknown, f: unknown, k: number, a: unknown) => unknown;
  /**
   * Per index `k` of `OBSERVED_METHODS`: the original the runtime gave ({@link Runtime.originals}) for the
   * first built-in view method of that name (a TypedArray's, else a Buffer's) when that method touches shared memory
   * through its receiver alone, else undefined; frozen. {@link callee} returns it for that method on any receiver
   * not over shared memory (a view or not: the replacement does what its original does there), testing it first. A
   * rewritten call of one of `BUFFER_ACCESSORS` calls `direct[k]` itself where `callee` returned it: the same
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
  /**
   * Before a `for` loop whose accesses are range-checked (`../instrument/ranges.ts`), when one of its views is over
   * shared memory: the loop variable runs from `lo` (an integer) by `step` while it is below `hi` (at most `hi` when
   * `inclusive` is 1; until it equals `hi` when `inclusive` is 2, `j !== hi`); `ints` are the values that must be safe integers for the indices to be exact; `list` holds six
   * values per access of the loop, in evaluation order: the view, its variable's number, the index at `lo`, the
   * index's step per iteration, the kind (0 read, 1 write, 2 read then write) and the site index in module `m`. The
   * runtime's {@link Runtime.span}, else false.
   */
  readonly span: SpanCheck;
  /**
   * Before a covered `for` loop (`../instrument/ranges.ts`: it may `continue`, `break` or access elements only in
   * some iterations, but runs no other code and no synchronization), when one of its views is over shared memory:
   * the arguments of {@link span}; a number whose bit k (k < 31) is set when the k-th access of the list may run
   * plain in every iteration. The runtime's {@link Runtime.covered}, else 0.
   */
  readonly covered: CoverCheck;
  /**
   * The runtime's {@link Runtime.syncs}, else `{ n: NaN }`. A covered loop with *opaque operations* (a property
   * write or a call the rewriter cannot prove harmless, `../instrument/opaque.ts`) keeps `syncs.n` as its guard is
   * set and compares it after each such operation: unequal (the operation synchronized: a new epoch, in which no
   * earlier check covers an access), its accesses fall back to their per-access checks for the rest of the loop.
   */
  readonly syncs: { readonly n: number };
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
   * TypedArray constructor or a subclass of one (`isTypedArrayConstructor` (`./views.ts`)), the runtime's
   * {@link Runtime.readAll} checks the copy the constructor is about to make. Returns `x`.
   */
  readonly copied: (m: SiteFunction, i: number, x: unknown, ctor?: unknown) => unknown;
  /**
   * The value `x` of `new SharedArrayBuffer(...)` or `new WebAssembly.Memory(...)` at site `i` of module `m`
   * (`../instrument/allocations.ts`), given to the runtime's {@link Runtime.allocated}. Returns `x`.
   */
  readonly allocated: (m: SiteFunction, i: number, x: unknown) => unknown;
  /**
   * The value `x` that an object pattern with integer literal keys `keys` destructures, or that is spread into an
   * object literal or destructured by a pattern with a rest element (`keys` omitted: every element), at site `i` of
   * module `m`: when `x` is a TypedArray over shared memory, the runtime's {@link Runtime.readElements} checks the
   * reads. Returns `x`.
   */
  readonly elements: (m: SiteFunction, i: number, x: unknown, keys?: readonly number[]) => unknown;
}
