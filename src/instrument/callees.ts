/**
 * **Pure callees** of range-checked loops (`./ranges.ts`; BigFoot's placement of coalesced checks, Rhodes, Flanagan,
 * Freund, PLDI 2017 §4, needs a loop body that cannot stop early or synchronize): a call `f(x, ...)` in such a loop
 * qualifies when `f` is a top-level function declaration of the module that nothing assigns
 * (`./scope.ts` {@link moduleFunction}) and whose code, run on numbers, booleans, `null` or `undefined` (what the
 * loop's operators, element reads and such calls give), can neither throw, loop, run other code, access memory
 * other than its own locals, nor synchronize:
 * - not `async`, not a generator; parameters plain identifiers (no default, pattern or rest);
 * - statements: `let`/`const` declarations at the top of its body (one name each, no pattern, no repeat), expression
 *   statements, `return`, `if`/`else` and blocks without declarations;
 * - expressions: its parameters and locals, each read only after its declaration (no temporal dead zone) and a
 *   `const` never assigned; number, boolean and null literals; the operators of {@link ARITHMETIC} and
 *   {@link UNARY}, `&&`, `||`, `??`, `?:`, the comma; assignments and updates of its parameters and locals. No
 *   calls, property reads, `this`, `arguments` or free variables.
 * On such values none of these operators throws or calls user code (ECMA-262 §7.1.1 ToPrimitive calls methods of
 * objects only). The one exception left is the engine's stack limit: a call made when the stack is nearly full
 * throws a RangeError, as any call does.
 */

import type * as E from 'estree';
import type { Rewriter } from './rewriter.js';
import { moduleFunction } from './scope.js';
import { type N, unparen } from './syntax.js';

/** The binary operators of a range-checked loop and of a pure callee: on numbers they run no code and never throw. */
export const ARITHMETIC = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '<',
  '<=',
  '>',
  '>=',
  '==',
  '!=',
  '===',
  '!==',
  '&',
  '|',
  '^',
  '<<',
  '>>',
  '>>>',
]);
/** Is `v` the value of a literal a range-checked loop or a pure callee may use (number, boolean, null)? */
export const operandLiteral = (v: unknown): boolean =>
  typeof v === 'number' || typeof v === 'boolean' || v === null;
/** The unary operators of a range-checked loop and of a pure callee (no `delete`). */
export const UNARY = new Set(['-', '+', '!', '~', 'typeof', 'void']);

class Impure extends Error {}
const impure = (): never => {
  throw new Impure();
};

/** The walk of a candidate callee: its locals, by name, with the end of their declaration and whether `const`. */
class Callee {
  readonly locals = new Map<string, { at: number; constant: boolean }>();

  statement(s: E.Statement, top: boolean): void {
    switch (s.type) {
      case 'VariableDeclaration':
        if (!top || s.kind === 'var') impure();
        for (const d of s.declarations) {
          if (d.id.type !== 'Identifier' || this.locals.has(d.id.name)) impure();
          if (d.init) this.expression(d.init);
          const name = (d.id as E.Identifier).name;
          this.locals.set(name, { at: (d as unknown as N).end, constant: s.kind === 'const' });
        }
        return;
      case 'ExpressionStatement':
        this.expression(s.expression);
        return;
      case 'ReturnStatement':
        if (s.argument) this.expression(s.argument);
        return;
      case 'IfStatement':
        this.expression(s.test);
        this.statement(s.consequent, false);
        if (s.alternate) this.statement(s.alternate, false);
        return;
      case 'BlockStatement':
        for (const x of s.body) this.statement(x, false);
        return;
      case 'EmptyStatement':
        return;
      default:
        impure();
    }
  }

  /** A read or assignment of `id`: one of the callee's own variables, after its declaration. */
  private local(id: E.Identifier, assigned: boolean): void {
    const v = this.locals.get(id.name) ?? impure();
    if ((id as N).start < v.at || (assigned && v.constant)) impure();
  }

  expression(e: E.Node): void {
    const x = unparen(e);
    switch (x.type) {
      case 'Identifier':
        this.local(x, false);
        return;
      case 'Literal':
        if (!operandLiteral(x.value)) impure();
        return;
      case 'BinaryExpression':
        if (!ARITHMETIC.has(x.operator)) impure();
        this.expression(x.left);
        this.expression(x.right);
        return;
      case 'LogicalExpression':
        this.expression(x.left);
        this.expression(x.right);
        return;
      case 'UnaryExpression':
        if (!UNARY.has(x.operator)) impure();
        this.expression(x.argument);
        return;
      case 'ConditionalExpression':
        this.expression(x.test);
        this.expression(x.consequent);
        this.expression(x.alternate);
        return;
      case 'SequenceExpression':
        for (const y of x.expressions) this.expression(y);
        return;
      case 'AssignmentExpression':
        if (unparen(x.left).type !== 'Identifier') impure();
        this.expression(x.right);
        this.local(unparen(x.left) as E.Identifier, true);
        return;
      case 'UpdateExpression':
        if (unparen(x.argument).type !== 'Identifier') impure();
        this.local(unparen(x.argument) as E.Identifier, true);
        return;
      default:
        impure();
    }
  }
}

/** Per function declaration, whether it is pure (see the file header). */
const verdicts = new WeakMap<E.Node, boolean>();

/** Whether the callee `id` of a call in a loop of `rw`'s program is a pure module function (see the file header). */
export function pureCallee(rw: Rewriter, id: E.Identifier): boolean {
  const f = moduleFunction(rw, id);
  if (f === null) return false;
  let pure = verdicts.get(f);
  if (pure === undefined) {
    pure = false;
    if (!f.async && !f.generator && f.params.every((p) => p.type === 'Identifier'))
      try {
        const c = new Callee();
        for (const p of f.params as E.Identifier[]) {
          if (c.locals.has(p.name)) impure();
          c.locals.set(p.name, { at: 0, constant: false });
        }
        for (const s of f.body.body) c.statement(s, true);
        pure = true;
      } catch (e) {
        if (!(e instanceof Impure)) throw e;
      }
    verdicts.set(f, pure);
  }
  return pure;
}
