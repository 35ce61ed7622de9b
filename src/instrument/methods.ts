/**
 * Method calls that carry their site: `o.name(...)` with a name of OBSERVED_METHODS (the built-in methods the
 * runtime observes on shared views, and the methods it observes on other receivers), so that a patched method need
 * not capture a stack to name its caller; on receivers not over shared memory the call goes to the original the
 * runtime replaced, at the cost of a test (`Hooks.callee`, `../hooks/contract.ts`).
 */

import type * as E from 'estree';
import { BUFFER_ACCESSORS, DATAVIEW_METHODS, OBSERVED_METHODS, TESTED_ARGUMENT } from '../hooks/names.js';
import { HOOKS_GLOBAL, SITE_FN, type State } from './rewriter.js';
import { newSite } from './sites.js';
import type { N } from './syntax.js';
import { temp } from './temporaries.js';
import { lineBreaks, parenAfter } from './text.js';

/**
 * `o.name(args)` with a name of OBSERVED_METHODS, written `a.b.name` (identifiers, `this` and dots only; no
 * optional link) becomes
 *
 *     __goldilocks.call((g = __goldilocks.callee1(o, f = o.name, k, a = arg0)) !== null ? (t = o, g)
 *       : (t = __goldilocks.site(__gl$m, i, 'o.name', o, f), __goldilocks.sited), t, a, ...other args)
 *
 * (`k` the name's index in OBSERVED_METHODS; `callee(o, f = o.name, k)` and the arguments in place when there is
 * none or the first is a spread; with a temporary `(r = o)`, then `r`, when `o` is a member expression, or an
 * identifier the first argument could reassign): the same call, in the same order (the object, the property, the
 * arguments, then the callability check). `call` is `Function.prototype.call` uncurried, so nothing of `f` is
 * looked up. When the runtime may need the call's site (a view's built-in method on a view over shared memory, or
 * a method the runtime observes on other receivers: see `Hooks.callee`) it calls `sited` with `this` the
 * record `site` made, which calls `f` with its static site pending (so a patched method does not capture a stack
 * for it); otherwise `g`: `f` itself, or on a view that is not over shared memory the built-in method the runtime
 * replaced, at the cost of the test (bench:instrument).
 *
 * The arguments evaluated apart are those up to the one the method may touch shared memory through
 * (TESTED_ARGUMENT: the second for `encodeInto`, whose call becomes `callee1(o, f = o.name, k, (a = arg0,
 * b = arg1))`, then `call(..., t, a, b, ...other args)`); with fewer arguments or a spread among them, none
 * (`callee`). A call of a Buffer number accessor (BUFFER_ACCESSORS) or of a DataView get or set method
 * (DATAVIEW_METHODS) without a spread evaluates all of them apart and calls `__goldilocks.direct[k]` itself where `g`
 * is it: a constant target, which V8 inlines, where `g` is one it does not know (bench:instrument,
 * `Buffer#readUInt32LE`):
 *
 *     ((g = __goldilocks.callee1(o, f = o.name, k, (a = arg0, b = arg1, a))), g === __goldilocks.direct[k]
 *       ? __goldilocks.call(__goldilocks.direct[k], o, a, b) : __goldilocks.call(g !== null ? ..., t, a, b))
 */
export function methodCall(n: E.SimpleCallExpression & N, st: State): void {
  const { rw } = st;
  const { source, ms } = rw;
  const callee = n.callee as N;
  if (n.optional || callee.type !== 'MemberExpression' || callee.computed || callee.optional) return;
  const property = callee.property;
  if (property.type !== 'Identifier') return;
  const k = OBSERVED_METHODS.indexOf(property.name);
  if (k < 0) return;
  const text = source.slice(callee.start, callee.end);
  if (!/^[\w$]+(\.[\w$]+)+$/.test(text)) return;
  const paren = parenAfter(rw, n);
  if (paren < 0) return;
  const object = callee.object as N;
  if (object.type === 'Super') return;
  const edited = ms.slice(object.start, object.end);
  const noSpread = (args: readonly (E.Expression | E.SpreadElement)[]): boolean =>
    args.every((arg) => arg.type !== 'SpreadElement');
  // the arguments evaluated apart, into temporaries, inside the test: up to the one the method may touch shared
  // memory through (TESTED_ARGUMENT), or, for a Buffer number accessor called as direct[k], all of them
  const accessor =
    (BUFFER_ACCESSORS.includes(property.name) || DATAVIEW_METHODS.includes(property.name)) &&
    noSpread(n.arguments);
  const count = accessor ? n.arguments.length : TESTED_ARGUMENT[k] + 1;
  const apartArgs = (
    n.arguments.length >= count && noSpread(n.arguments.slice(0, count)) ? n.arguments.slice(0, count) : []
  ) as (E.Expression & N)[];
  const apart = apartArgs.length > 0;
  let receiver = edited;
  let ref = edited;
  // a receiver read after the first argument is evaluated apart is kept first: the argument may reassign it
  if (object.type !== 'ThisExpression' && (object.type !== 'Identifier' || apart)) {
    ref = temp(st);
    receiver = `(${ref} = ${edited})`;
  }
  const i = newSite(rw, n);
  const f = temp(st);
  const g = temp(st);
  const t = temp(st);
  const H = HOOKS_GLOBAL;
  const temps = apartArgs.map(() => temp(st));
  // each moved argument keeps the line breaks before it (for the first, those between the callee and it)
  const assigned = apartArgs.map(
    (arg, j) =>
      `${temps[j]} = ${lineBreaks(rw, j === 0 ? callee.end : apartArgs[j - 1].end, arg.start)}${ms.slice(arg.start, arg.end)}`,
  );
  // the sequence's value is the tested argument (encodeInto's destination: the last one moved)
  const tested = temps[TESTED_ARGUMENT[k]];
  const value =
    assigned.length === 1
      ? assigned[0]
      : `(${assigned.join(', ')}${tested === temps.at(-1) ? '' : `, ${tested}`})`;
  const test = apart
    ? `${H}.callee1(${receiver}, ${f} = ${ref}.${property.name}, ${k}, ${value})`
    : `${H}.callee(${receiver}, ${f} = ${ref}.${property.name}, ${k})`;
  const sited = `(${t} = ${H}.site(${SITE_FN}, ${i}, '${text}', ${ref}, ${f}), ${H}.sited)`;
  /** What to call, given `picked`, an expression of the picked function `g` (or null: sited). */
  const pick = (picked: string) => `${picked} !== null ? (${t} = ${ref}, ${g}) : ${sited}`;
  const args = temps.map((x) => `, ${x}`).join('');
  if (accessor) {
    const direct = `${H}.direct[${k}]`;
    const last = apartArgs.at(-1);
    ms.overwrite(
      callee.start,
      n.end,
      `((${g} = ${test}), ${g} === ${direct} ? ${H}.call(${direct}, ${ref}${args}) : ` +
        `${H}.call(${pick(g)}, ${t}${args}))${lineBreaks(rw, last === undefined ? callee.end : last.end, n.end)}`,
    );
  } else if (apart)
    ms.overwrite(
      callee.start,
      (apartArgs.at(-1) as N).end,
      `${H}.call(${pick(`(${g} = ${test})`)}, ${t}${args}`,
    );
  else {
    const rest = `${n.arguments.length ? ', ' : ''}${lineBreaks(rw, callee.end, paren + 1)}`;
    ms.overwrite(callee.start, paren + 1, `${H}.call(${pick(`(${g} = ${test})`)}, ${t}${rest}`);
  }
}
