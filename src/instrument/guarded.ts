/**
 * The guarded access: the text that replaces a read or write of `o[k]`. Chosen by `bench/instrument-micro.ts`: the
 * plain access stays at its site, behind an inline guard
 *
 *     (__goldilocks.isView(X) && X !== __gl$c<i> && (__gl$c<i> = __goldilocks.r(X, K, __gl$m, i, __gl$c<i>)) === true
 *       ? __goldilocks.get(X, K, __gl$m, i) : X[K])
 *
 * (`w` and `set` for a write). `__gl$c<i>` is site `i`'s cache: the last view seen there that is not over a
 * SharedArrayBuffer, which `r`/`w` answer for such a view. Each is a `var` of the module's top level (hoisted, so
 * usable before any other code runs, as in an import cycle: it is then undefined). A variable, not an element of
 * `__gl$m`, because a context slot is one load: with the element, the guard cost an accessor method over a
 * Float64Array 2.4× the plain access, with the variable 1.5–1.7× (docs/BENCHMARKS.md, "Instrumentation cost"). For a
 * shared view `r`/`w` check the access and answer the cache unchanged, so the site performs the access itself (it
 * stays monomorphic), or, for a key that is not a number, answer true: then `get`/`set` convert the key once, check
 * and perform the access.
 */

import { HOOKS_GLOBAL, type Rewriter, SITE_CACHE, SITE_FN } from './rewriter.js';

/** Site `i`'s cache variable: the last view seen there that is not over shared memory. */
const cacheOf = (rw: Rewriter, i: number): string => {
  rw.cached.add(i);
  return `${SITE_CACHE}${i}`;
};

/** The per-access guard of object `x` at site `i`: a view, and not the one the site's cache holds. */
export const guard = (rw: Rewriter, x: string, i: number): string =>
  `${HOOKS_GLOBAL}.isView(${x}) && ${x} !== ${cacheOf(rw, i)}`;

const checked = (rw: Rewriter, g: string, hook: 'r' | 'w', x: string, k: string, i: number): string =>
  `${g} && (${cacheOf(rw, i)} = ${HOOKS_GLOBAL}.${hook}(${x}, ${k}, ${SITE_FN}, ${i}, ${cacheOf(rw, i)})) === true`;

/** The guarded read of `x[k]` at site `i`; `g` the guard when it is not {@link guard}'s (a temporary holding it). */
export const read = (rw: Rewriter, x: string, k: string, i: number, g?: string): string =>
  `${checked(rw, g ?? guard(rw, x, i), 'r', x, k, i)} ? ${HOOKS_GLOBAL}.get(${x}, ${k}, ${SITE_FN}, ${i}) : ${x}[${k}]`;

/** The guarded write `x[k] = v` at site `i`, as {@link read}. */
export const write = (rw: Rewriter, x: string, k: string, v: string, i: number, g?: string): string =>
  `${checked(rw, g ?? guard(rw, x, i), 'w', x, k, i)} ? ${HOOKS_GLOBAL}.set(${x}, ${k}, ${v}, ${SITE_FN}, ${i}) : ${x}[${k}] = ${v}`;
