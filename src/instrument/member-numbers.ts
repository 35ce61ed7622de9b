/**
 * **Member numbers** of range-checked loops (`./ranges.ts`, issue 24 §1): a property `O.p` read as a number in the
 * loop's bounds, indices or body (a solver's `j < this.n - 1`, `this.grid[i * this.n + j]`, `this.w * x`), `O` being
 * `this` or a variable the range checks accept (as a member view's object, `./member-views.ts`), `p` a name (not
 * computed, not private, not optional). The loop's guard reads `O.p` once, as it is entered, into a temporary `T`
 * with `Hooks.row(O, "p")` (its value when reading it runs no code: no getter, no Proxy on the prototype chain up to
 * the first object with an own `p`, a data property; else null), tests `typeof T === "number"` as it does the loop's
 * other number variables, and computes the bounds and indices it passes to `Hooks.span` with `T`; the loop itself
 * still reads `O.p` where it did. Any test failing, the loop takes its per-access checks.
 *
 * Why one read stands for every read of the loop (its test `j < O.p` in each iteration, its body's reads): the body
 * runs no code (no call but of the built-ins and pure functions the guard tests, on numbers; its operators on
 * numbers, `T` tested), assigns neither `O` (a variable the range checks accept, which the body does not assign)
 * nor any property (a member assignment or update refuses the loop), and no other thread holds the object `O`
 * (objects are not shared between threads, only their SharedArrayBuffers). An element access of a view that is not
 * a TypedArray (a Proxy, a DataView's getter) could run code that assigns `O.p`; so the guard also tests every view
 * to be a TypedArray (`Hooks.typedArray`: a number key never reaches a getter, a setter or a trap, ECMA-262
 * §10.4.5.4-5, and never names an ordinary property) before it calls `Hooks.span`. When no view is shared the loop
 * runs plain without those tests, whatever `O.p` becomes: its views are the same throughout. Else `O` has the same
 * properties and prototype chain at every read as when the guard read `O.p`: each read finds the same data
 * property, the same number, and runs no code, so the loop runs exactly the iterations and indices checked.
 * Not with opaque operations (`./opaque.ts`), which run code.
 */

import type * as E from 'estree';
import { HOOKS_GLOBAL } from '../hooks/names.js';
import { type MemberView, memberView, objectName } from './member-views.js';
import { unparen } from './syntax.js';

/** A member number `O.p` of a loop, and the temporary its guard reads it into. */
export interface MemberNumber extends MemberView {
  temp: string;
}

/**
 * The view `V` of a bound's `V.length` (`V` an identifier; `./ranges.ts` tests `Hooks.fixedLength(V)`, not a member
 * number), else null.
 */
export function lengthView(m: E.MemberExpression): E.Identifier | null {
  const v = unparen(m.object);
  const named = !m.computed && !m.optional && m.property.type === 'Identifier';
  return named && (m.property as E.Identifier).name === 'length' && v.type === 'Identifier' ? v : null;
}

/** The key of member number `m` among the aliases of `./ranges.ts` `affine`: the text `O.p`, not an identifier. */
export const memberKey = (m: MemberView): string => `${objectName(m.x)}.${m.p}`;

/** The member numbers of one loop, registered as the planning of `./ranges.ts` meets them. */
export class MemberNumbers {
  readonly list: MemberNumber[] = [];
  /**
   * By {@link memberKey}, an identifier naming the temporary: the aliases of `./ranges.ts` `affine` that make it
   * read `O.p` as that variable.
   */
  readonly aliases = new Map<string, E.Identifier>();

  /** @param temp allocates a temporary of the loop's function */
  constructor(private readonly temp: () => string) {}

  /**
   * Registers `e` when it is a member number `O.p` (`O` `this` or an identifier, `p` a name), its alias also set in
   * `into`; false when it is not one.
   */
  add(e: E.Node, into?: Map<string, E.Node>): boolean {
    const m = memberView(e);
    if (m === null) return false;
    const key = memberKey(m);
    let id = this.aliases.get(key);
    if (id === undefined) {
      id = { type: 'Identifier', name: this.temp() };
      this.aliases.set(key, id);
      this.list.push({ ...m, temp: id.name });
    }
    into?.set(key, id);
    return true;
  }

  /**
   * Registers the member numbers of `e`, an expression in the grammar of `./ranges.ts` `affine` (identifiers,
   * literals, unary and binary operators), into `into` too; with `bound`, not the `V.length` of a bound.
   */
  within(e: E.Node, bound: boolean, into?: Map<string, E.Node>): void {
    const x = unparen(e);
    if (x.type === 'BinaryExpression') {
      this.within(x.left, bound, into);
      this.within(x.right, bound, into);
    } else if (x.type === 'UnaryExpression') this.within(x.argument, bound, into);
    else if (x.type === 'MemberExpression' && !(bound && lengthView(x))) this.add(x, into);
  }
}

/**
 * The guard's read and test of member number `n`, followed by ` && `: `typeof (T = Hooks.row(O, "p")) ===
 * "number" && `.
 */
export const numberTest = (n: MemberNumber): string =>
  `typeof (${n.temp} = ${HOOKS_GLOBAL}.row(${objectName(n.x)}, ${JSON.stringify(n.p)})) === "number" && `;
