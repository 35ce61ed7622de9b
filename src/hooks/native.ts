/**
 * Replacements of built-in functions that a program cannot tell from the functions they replace: the runtime's
 * `Atomics`, view methods, `postMessage`, `structuredClone`, ... (`../live/intercept/`, `../live/messages.ts`,
 * `../live/threads.ts`) and the thread set-up's `Worker` and `process.dlopen` (`../node/setup.ts`) take
 * the original's `name` and `length`, and `Function.prototype.toString` gives the original's text for them (ECMA-262
 * §20.2.3.5: a built-in's is a NativeFunction, `function add() { [native code] }`). Libraries tell a built-in from a
 * polyfill by that text (lodash's `isNative`, core-js), and a program must run the same under `goldilocks run` as under
 * plain node. One per thread, as the replacements are.
 */

/** The replacements made in this thread, each with the function it replaced. */
const replaced = new WeakMap<object, object>();

/**
 * Makes `fn` look like `original`: its `name` and `length` (configurable, not writable, as every function's), and
 * its text through `Function.prototype.toString` once {@link patchFunctionToString} ran.
 */
export function disguise(fn: object, original: object): void {
  Object.defineProperty(fn, 'name', { value: (original as { name: string }).name });
  Object.defineProperty(fn, 'length', { value: (original as { length: number }).length });
  sameText(fn, original);
}

/**
 * Makes `Function.prototype.toString` give `original`'s text for `fn` (a Proxy of `original`, whose name and length
 * are the original's already).
 */
export function sameText(fn: object, original: object): void {
  replaced.set(fn, replaced.get(original) ?? original);
}

/**
 * Replaces `Function.prototype.toString` (once per thread; its own text that of the built-in) by one that gives, for a
 * function {@link disguise}d, the text of the function it replaced, and otherwise does what the built-in does
 * (including its TypeError for a receiver that is not a function).
 */
export function patchFunctionToString(): void {
  const proto = Function.prototype as unknown as Record<string, unknown>;
  const original = proto.toString as (this: unknown) => string;
  if (replaced.has(original)) return;
  // named by disguise (the name `toString` would shadow Object.prototype's)
  const text = function (this: unknown): string {
    const f = typeof this === 'function' ? replaced.get(this) : undefined;
    return original.call(f ?? this);
  };
  disguise(text, original);
  const desc = Object.getOwnPropertyDescriptor(proto, 'toString')!;
  Object.defineProperty(proto, 'toString', { ...desc, value: text });
}
