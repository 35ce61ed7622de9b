/**
 * **Opaque operations** of covered loops (`./ranges.ts`; docs/RUNTIME.md "Covered loops"): an expression statement
 * of the loop's body that may run code the rewriter cannot see, a property write `o.p = x` (a setter, a Proxy's
 * `set` trap) or a call `f(...)`, `o.f(...)` of a function that is neither a `PURE_METHODS` built-in nor a pure function
 * of the module (raytracer's `hit.sphere = s` in its `nearest` loop). That code may synchronize (a new epoch of the
 * thread: no check of the old one covers an access, FastTrack PLDI'09 §3), patch `Math` or a view's `length` getter,
 * throw, or access shared memory (through its own per-access checks). A covered loop records nothing, so a throw
 * changes nothing; what it must know is that its cover, the same-epoch hits its guard's bits stand for, still holds
 * at each access that runs plain. So the statement is followed by
 *
 *     R = E === __goldilocks.syncs.n && [the guard's pure and fixedLength tests] ? R : 0
 *
 * (`E` the thread's count of synchronization operations, `Hooks.syncs`, read as the guard was set): equal, no
 * synchronization ran since the cover check and the built-ins the body calls are still the ones it tested; else
 * every later access of the loop takes its per-access check (bit 0). Exact as long as nothing but the operation runs
 * code between the test and the accesses after it, which the rules below give:
 * - the operands (the value written, the arguments) follow the loop's rules and hold no element access: an access
 *   among them would run after a getter of `o.f` or of a global `o` and before the test;
 * - every variable of the body's indices, bounds and operands, and the loop's variable (a `var` may be a closure's), is
 *   one no nested function assigns (`./scope.ts` `closureWritten`): the code run cannot change them, so the
 *   iterations and indices stay those the guard checked and the operators stay on numbers (no `valueOf` runs);
 * - the operation's value is not used (an expression statement).
 */

import type * as E from 'estree';
import { PURE_METHODS } from '../hooks/names.js';
import { HOOKS_GLOBAL } from './rewriter.js';
import { namedMethodCall, unparen } from './syntax.js';

/**
 * The operands of `e` (an expression statement's expression) when it is an opaque operation (see the file header):
 * of `o.p = x` (`o` an identifier, `p` a name), `[x]`; of a call `f(...)` or `o.f(...)` without spread, optional
 * chaining, a `PURE_METHODS` method or a callee `isPure` accepts, its arguments. Else null.
 */
export function opaqueOperands(e: E.Node, isPure: (callee: E.Identifier) => boolean): E.Node[] | null {
  const x = unparen(e);
  if (x.type === 'AssignmentExpression') {
    const t = unparen(x.left);
    const plain =
      x.operator === '=' &&
      t.type === 'MemberExpression' &&
      !t.computed &&
      !t.optional &&
      unparen(t.object).type === 'Identifier';
    return plain ? [x.right] : null;
  }
  if (x.type !== 'CallExpression' || x.optional || x.arguments.some((a) => a.type === 'SpreadElement'))
    return null;
  const f = unparen(x.callee);
  if (f.type === 'Identifier') return isPure(f) ? null : x.arguments;
  const named =
    f.type === 'MemberExpression' &&
    !f.computed &&
    !f.optional &&
    unparen(f.object).type === 'Identifier' &&
    namedMethodCall(x, PURE_METHODS) === null;
  return named ? x.arguments : null;
}

/**
 * The statement part that follows an opaque operation (see the file header): guard temporary `temp`, the count of
 * synchronization operations kept in `syncs`, and `tests`, the guard's tests of the built-ins the body calls and of
 * the views its bound reads the length of, each followed by ` && `.
 */
export const afterOpaque = (temp: string, syncs: string, tests: string): string =>
  `${temp} = ${syncs} === ${HOOKS_GLOBAL}.syncs.n && ${tests}true ? ${temp} : 0`;

/** The statement part that keeps the count of synchronization operations in temporary `syncs` as the guard is set. */
export const keepSyncs = (syncs: string): string => `${syncs} = ${HOOKS_GLOBAL}.syncs.n`;
