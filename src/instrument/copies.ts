/**
 * Copies of a view the engine makes without a call the runtime can patch: the first argument of `new C(x, ...)`
 * (`__goldilocks.copied`: checked when `C` turns out to be a TypedArray constructor), the source of object spread
 * `{ ...x }` and of object patterns with a rest element or integer literal keys in declarations and assignments
 * (`__goldilocks.elements`). The operand stays in place, wrapped by the hook, which returns it.
 */

import type * as E from 'estree';
import { TYPED_ARRAYS } from '../hooks/names.js';
import { HOOKS_GLOBAL, isLocal, isPure, type Rewriter, SITE_FN, type State } from './rewriter.js';
import { newSite } from './sites.js';
import { mayBeView, type N, unparen } from './syntax.js';
import { temp } from './temporaries.js';

/**
 * Global constructors that never copy a view given as first argument element by element as a TypedArray
 * constructor does (`new Map(view)` and `new Set(view)` iterate it: checked by the iterator; `new String(view)`
 * calls its `join`): `new` of one of them by its global name is left as it is.
 */
const NOT_COPYING = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'FinalizationRegistry',
  'Promise',
  'Proxy',
  'Date',
  'RegExp',
  'Array',
  'Object',
  'String',
  'Number',
  'Boolean',
  'Function',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'URL',
  'URLSearchParams',
  'Worker',
]);

/**
 * `new Float64Array(x, ...)` (a global TypedArray constructor, x not a spread) becomes
 * `new Float64Array(__goldilocks.copied(__gl$m, i, x), ...)`: a copy of a shared view is checked as a read of it.
 * Any other constructor, `new C(x, ...)` with an `x` that may be a view, becomes
 * `new C(__goldilocks.copied(__gl$m, i, x, C), ...)` (`C` re-read when it is an identifier and `x` is pure, else
 * `new (t = C)(... t)`): the hook checks the copy when `C` turns out to be a TypedArray constructor or a subclass
 * of one (`const F = Float64Array; new F(v)`, `class M extends Uint8Array {}`).
 */
export function typedArrayNew(n: E.NewExpression & N, st: State): void {
  const rw = st.rw;
  const callee = n.callee as N;
  const x = n.arguments[0] as (E.Expression & N) | E.SpreadElement | undefined;
  if (x === undefined || x.type === 'SpreadElement') return;
  const global =
    callee.type === 'Identifier' &&
    (TYPED_ARRAYS as readonly string[]).includes(callee.name) &&
    !isLocal(rw, callee);
  if (global) {
    wrapElements(rw, n, x, '', 'copied');
    return;
  }
  if (!mayBeView(x) || (callee.type === 'Identifier' && NOT_COPYING.has(callee.name) && !isLocal(rw, callee)))
    return;
  let ctor = rw.source.slice(callee.start, callee.end);
  if (callee.type !== 'Identifier' || !isPure(rw, x)) {
    ctor = temp(st);
    rw.ms.prependLeft(callee.start, `(${ctor} = `);
    rw.ms.appendRight(callee.end, ')');
  }
  wrapElements(rw, n, x, ctor, 'copied');
}

/**
 * Wraps operand `x` as `__goldilocks.<hook>(__gl$m, i, x[, extra])` with a new site at `at`: `elements` (the
 * default; `extra` the literal keys, or '' for all elements) or `copied` (`extra` the constructor).
 */
export function wrapElements(
  rw: Rewriter,
  at: N,
  x: N,
  extra: string,
  hook: 'elements' | 'copied' = 'elements',
): void {
  const i = newSite(rw, at);
  rw.ms.prependLeft(x.start, `${HOOKS_GLOBAL}.${hook}(${SITE_FN}, ${i}, `);
  rw.ms.appendRight(x.end, extra ? `, ${extra})` : ')');
}

/**
 * The source `x` of object pattern `target` (a declaration's initializer or an assignment's right side): wrapped
 * with the `elements` hook when the pattern reads elements of a view — every element when it has a rest
 * element (CopyDataProperties reads all the keys the other properties do not), else those of its integer
 * literal keys (`const { 0: a, length } = view`). A pattern with a computed key and no rest is left as it is
 * (which elements it reads is known only as it runs).
 */
export function patternSource(rw: Rewriter, target: E.Node, x: N): void {
  const pattern = unparen(target);
  if (pattern.type !== 'ObjectPattern' || !mayBeView(x)) return;
  const keys: number[] = [];
  let rest = false;
  for (const p of pattern.properties) {
    if (p.type === 'RestElement') rest = true;
    else if (p.computed) return;
    else if (p.key.type === 'Literal' && /^(0|[1-9]\d*)$/.test(String(p.key.value)))
      keys.push(Number(p.key.value));
  }
  if (rest) wrapElements(rw, pattern as N, x, '');
  else if (keys.length) wrapElements(rw, pattern as N, x, `[${keys.join(', ')}]`);
}
