/**
 * **Member views** of range-checked loops (`./ranges.ts`, issue 24 §1): an element access `O.p[i]` whose view is a
 * property of an object, `O` being `this` or a variable (a solver's `this.grid[i * n + j]`, a state's `s.grid[k]`),
 * `p` a name. The loop's guard reads `O.p` once, as it is entered, with `Hooks.row(O, "p")` (its value when reading it
 * runs no code: no getter, no Proxy on the prototype chain up to the first object with an own `p`, a data property;
 * else null), and tests that the value is a TypedArray, as are the loop's other views, else the loop takes its
 * per-access checks; then it uses that value as one of the loop's views, as it does a row `X[e]` of an array of views.
 *
 * Why one read stands for the body's: the body reads `O.p` again at each access, but it runs no code (no call but of
 * the built-ins and pure functions the guard tests, on numbers; its element accesses are of TypedArrays, tested,
 * whose number keys never reach a getter, a setter or a trap: ECMA-262 §10.4.5.4-5), assigns neither `O` (a variable the range checks accept, which the body does not assign, as a
 * row's array) nor any property (a member assignment refuses the loop), and no other thread holds the object `O`
 * (objects are not shared between threads, only their SharedArrayBuffers). So `O` has the same properties and
 * prototype chain at every access as when the guard read `O.p`: each read finds the same data property, the same
 * value, and runs no code.
 */

import type * as E from 'estree';
import type { Rewriter } from './rewriter.js';
import { type N, unparen } from './syntax.js';

/** The object `O` of a member view `O.p` and its property's name. */
export interface MemberView {
  x: (E.Identifier | E.ThisExpression) & N;
  p: string;
}

/** The text of a member view's object `O`: its name, or `this`. */
export const objectName = (x: MemberView['x']): string => (x.type === 'Identifier' ? x.name : 'this');

/**
 * The member view that `o` (an element access's object) reads: `O.p`, `O` `this` or an identifier, `p` a name (not
 * computed, not private, not optional); else null.
 */
export function memberView(o: E.Node): MemberView | null {
  const m = unparen(o);
  if (m.type !== 'MemberExpression' || m.computed || m.optional || m.property.type !== 'Identifier')
    return null;
  const x = unparen(m.object);
  if (x.type !== 'ThisExpression' && x.type !== 'Identifier') return null;
  return { x: x as MemberView['x'], p: m.property.name };
}

/**
 * Whether `this`, read by the guard before a loop of the function `fn` (or program), reads without an exception:
 * not in a derived class's constructor, where `this` is in its temporal dead zone until `super()` returns (ECMA-262
 * §9.1.1.3.4 GetThisBinding), nor in a function nested in one (an arrow function's `this` is its enclosing
 * function's, §10.2.1.2; a function's own is not, but a nested one is refused with it). Elsewhere `this` is bound
 * on entry to the function whose `this` it is (a method, a class field's initializer, a static block, the program).
 */
export function thisReadable(rw: Rewriter, fn: N): boolean {
  for (const c of rw.derivedConstructors)
    if ((c as N).start <= fn.start && fn.end <= (c as N).end) return false;
  return true;
}
