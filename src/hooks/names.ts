/**
 * The names the rewriter (`../instrument/`) and the hooks agree on: the `Atomics` functions, the observed methods
 * and the argument each may touch shared memory through, the TypedArray constructors, and the global the hooks live
 * at.
 */

/** Name of the per-thread hooks object on `globalThis` (`Hooks`). */
export const HOOKS_GLOBAL = '__goldilocks';

/** The `Atomics` functions whose calls `Atomics.name(...)` the rewriter gives a static site (`Hooks.atomics`). */
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

/**
 * The `Math` functions a range-checked loop may call (`../instrument/ranges.ts`, `Hooks.pure`): on numbers they run
 * no other code and touch no memory (ECMA-262 §21.3.2: each converts its arguments with ToNumber, which runs no code
 * on a number).
 */
export const PURE_MATH = [
  'abs',
  'ceil',
  'cos',
  'exp',
  'floor',
  'fround',
  'hypot',
  'imul',
  'log',
  'max',
  'min',
  'round',
  'sign',
  'sin',
  'sqrt',
  'tan',
  'trunc',
] as const;

/**
 * The `Number` predicates a range-checked loop may call likewise (ECMA-262 §21.1.2.2–5: `Number.isFinite`,
 * `isInteger`, `isNaN`, `isSafeInteger` convert nothing: on any argument they run no other code and touch no memory).
 */
export const PURE_NUMBER = ['isFinite', 'isInteger', 'isNaN', 'isSafeInteger'] as const;

/** The methods `M.f(...)` a range-checked loop may call: {@link PURE_MATH}'s and {@link PURE_NUMBER}'s names. */
export const PURE_METHODS: readonly string[] = [...PURE_MATH, ...PURE_NUMBER];

/** The most arguments an `Atomics` function of {@link ATOMIC_OPS} takes (`compareExchange`, `wait`, `waitAsync`). */
export const ATOMIC_ARITY = 4;

/**
 * The names of `Buffer.prototype`'s number accessors (`readUInt32LE`, `writeDoubleBE`...: Node's lib/buffer.js),
 * a method no other built-in view has: a rewritten call of one of them compares the method it is to call with
 * `Hooks.direct` first.
 */
export const BUFFER_ACCESSORS: readonly string[] = Object.getOwnPropertyNames(Buffer.prototype).filter(
  (name) => /^(read|write)[A-Z]/.test(name),
);

/** The names of `DataView.prototype`'s get and set methods (ECMA-262 §25.3.4: `getInt8` … `setBigUint64`). */
export const DATAVIEW_METHODS: readonly string[] = Object.getOwnPropertyNames(DataView.prototype).filter(
  (name) => /^(get|set)(Int|Uint|Float|BigInt|BigUint)\d+$/.test(name),
);

/**
 * The method names whose calls `o.name(...)` the rewriter gives a site (`Hooks.sited`): those of the
 * built-in methods the runtime observes on shared views (`%TypedArray%.prototype` and `Array.prototype` range and
 * search methods, `Buffer.prototype`'s bulk methods and its `read…`/`write…` accessors, `DataView.prototype`'s get
 * and set methods, {@link DATAVIEW_METHODS}, `TextDecoder#decode`,
 * `TextEncoder#encodeInto`, `StringDecoder#write`), and `goldilocks/stm`'s `STM#atomic`, whose commit is reported at
 * its call site. Calls of any other name, and calls through
 * `call`/`apply`/`Reflect`, reach the runtime's patched methods too, which then find their caller from a stack
 * (about 10 µs a call). A name's index here is the `k` the rewritten call passes to `Hooks.callee`.
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
  'atomic',
  ...BUFFER_ACCESSORS,
  ...DATAVIEW_METHODS,
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

/**
 * Iterations below which a loop is left to its per-access checks (`../live/spans.ts`): a range check's fixed cost (its
 * views, lanes, runs and page locks) exceeds the per-access checks of so few iterations (moldyn's reduction over the
 * workers' force arrays, `acc[v * stride + i]` for v below the worker count: 2 iterations, a stride the guard
 * computes). `Hooks.typedIteration` (`./views.ts`) answers false below it: a for…of loop would pay its test for nothing.
 */
export const MIN_RANGE_ITERATIONS = 8;
