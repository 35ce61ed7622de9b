/**
 * **Parity skips** of range-checked loops (`./ranges.ts`): a loop whose body begins `if (P) continue;`, `P` comparing
 * the parity of an expression `A` of the loop variable with `K` — `(A) % 2 OP K` or `(A) & 1 OP K` (either side), `OP`
 * one of `===`, `!==`, `==`, `!=` — runs the rest of its body in every second iteration when `P` alternates between
 * consecutive iterations: a red-black sweep's `if ((i + j) % 2 !== color) continue;` over `j++`. Its other
 * statements' accesses then reach exactly the elements of a loop from the first iteration where `P` is false, with
 * twice the step, which a range check checks. This module only recognises the statement; `./ranges.ts` tests the
 * grammar of `A` and `K` (affine, `A`'s coefficient of the loop variable odd times the step, `K` without it) and
 * builds the guard's test, at the loop's entry, that `P` alternates (`P(LO) !== P(LO + step)`: `A` and `K` are
 * integers, so `A % 2` and `A & 1` have period 2) and, for `%`, that `A` is not negative at `LO` nor at `HI` (ECMA-262
 * §6.1.6.1.6: `%` takes the dividend's sign, and −1 % 2 is −1: `A` of one sign throughout, as an affine `A` is between
 * two non-negative ends, keeps the period).
 */
import type * as E from 'estree';
import { literalValue, unparen } from './syntax.js';

/** The comparisons a parity skip may make (on numbers, `==` is `===`). */
const COMPARISONS = new Set(['===', '!==', '==', '!=']);

/** A parity skip `if (M OP K) continue;`, `M` = `(A) % 2` or `(A) & 1`. */
export interface ParitySkip {
  /** `A`, whose parity `M` is. */
  a: E.Expression;
  /** `%` (`M` = `A % 2`) or `&` (`M` = `A & 1`). */
  operator: '%' | '&';
  /** `OP`. */
  comparison: string;
  /** `K`. */
  k: E.Expression;
  /** The whole test `P`. */
  test: E.Expression;
}

/** `M` of a parity skip when `e` is one: `(A) % 2` or `(A) & 1`. */
function parityOf(e: E.Node): { a: E.Expression; operator: '%' | '&' } | null {
  const x = unparen(e);
  if (x.type !== 'BinaryExpression' || x.left.type === 'PrivateIdentifier') return null;
  if (x.operator === '%' && literalValue(x.right) === 2) return { a: x.left, operator: '%' };
  if (x.operator === '&' && literalValue(x.right) === 1) return { a: x.left, operator: '&' };
  return null;
}

/** The parity skip of statement `s` (a loop body's first), or null when it is none. */
export function paritySkip(s: E.Statement | undefined): ParitySkip | null {
  if (s?.type !== 'IfStatement' || s.alternate) return null;
  const c =
    s.consequent.type === 'BlockStatement' && s.consequent.body.length === 1
      ? s.consequent.body[0]
      : s.consequent;
  if (c.type !== 'ContinueStatement' || c.label) return null;
  const test = unparen(s.test);
  if (
    test.type !== 'BinaryExpression' ||
    !COMPARISONS.has(test.operator) ||
    test.left.type === 'PrivateIdentifier'
  )
    return null;
  const left = parityOf(test.left);
  const m = left ?? parityOf(test.right);
  if (m === null) return null;
  return { ...m, comparison: test.operator, k: left ? test.right : test.left, test: s.test };
}
