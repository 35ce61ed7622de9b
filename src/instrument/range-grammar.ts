/**
 * The grammar of range-checked loops (`./ranges.ts`, whose header describes it): a loop's header
 * (`for (let j = LO; j < HI; j += c)` and its variants, {@link header}) and the affine indices of its element accesses
 * ({@link affine}), with the refusal every part of the plan throws when a loop does not qualify ({@link refuse}).
 */

import type * as E from 'estree';
import { lengthView, memberKey } from './member-numbers.js';
import { memberView } from './member-views.js';
import { literalValue, unparen } from './syntax.js';

/** The loop variable in an index's text (not an identifier: no other variable prints as it). */
export const J = '#';

export class Refused extends Error {}
export const refuse = (): never => {
  throw new Refused();
};

/** The `const`s of a loop body declared with an affine initializer, by name: their initializers. */
export type Aliases = ReadonlyMap<string, E.Node>;

/**
 * The identifiers of `e` (in the grammar of indices: identifiers, unary and binary operators) into `out`, by name;
 * with `aliases`, those of an alias's initializer in place of the alias.
 */
export function identifiers(e: E.Node, out: Map<string, E.Identifier>, aliases?: Aliases): void {
  const x = unparen(e);
  if (x.type === 'Identifier') {
    const alias = aliases?.get(x.name);
    if (alias !== undefined) identifiers(alias, out, aliases);
    else out.set(x.name, x);
  } else if (x.type === 'BinaryExpression') {
    identifiers(x.left, out, aliases);
    identifiers(x.right, out, aliases);
  } else if (x.type === 'UnaryExpression') identifiers(x.argument, out, aliases);
}

/**
 * Operators whose result is an integer (int32 or uint32) whatever numbers they take (ECMA-262 §13.9, §13.12): in an
 * index or `LO`, a part without the loop variable may use them (`1 + ((i + p) & 1)`, a red-black sweep's start).
 */
const INTEGER_OPERATORS = new Set(['&', '|', '^', '<<', '>>', '>>>']);

/** Is `e` an integer literal other than 0 (the right operand of a `%` an index may use: integers in, integer out)? */
function nonzeroLiteral(e: E.Node): boolean {
  const v = literalValue(e);
  return v !== undefined && Number.isSafeInteger(v) && v !== 0;
}

/**
 * The text of `e` (an index, or `LO`) in the grammar of indices: identifiers, number literals, `+`, `-`, `*`,
 * unary `-` and `+`, and in parts without the loop variable {@link INTEGER_OPERATORS} and `% N` (`N` an integer literal
 * other than 0), fully parenthesized; `j` replaced by `jText`, an alias (`aliases`) by its initializer's text.
 * `ids` collects the identifiers other than `j` and the aliases. The coefficient of `j` is an integer literal
 * `coef`, or `coef` times a part without `j` (`by`, its text: a column `b[k * n + j]` of a flat n×n matrix over `k`,
 * `by` = `n`; the guard computes the stride, the part's variables among the safe integers it tests).
 * @returns the text and the coefficient of `j`, or refuses (not that grammar, or `j` not affine with such a
 * coefficient).
 */
export function affine(
  e: E.Node,
  j: string,
  jText: string,
  ids: Set<string>,
  lengths?: Map<string, E.Identifier>,
  aliases?: Aliases,
): Affine {
  const x = unparen(e);
  switch (x.type) {
    case 'MemberExpression': {
      // `V.length`, in the bounds only: the guard tests `Hooks.fixedLength(V)` first (fixed, and its read runs no
      // code)
      const v = lengths ? lengthView(x) : null;
      if (v !== null) {
        if (v.name === j) return refuse();
        lengths?.set(v.name, v);
        return { text: `${v.name}.length`, coef: 0 };
      }
      // a member number `O.p` (`./member-numbers.ts`): its alias, the temporary the guard reads it into
      const m = memberView(x);
      const alias = m && aliases?.get(memberKey(m));
      return alias ? affine(alias, j, jText, ids, lengths, aliases) : refuse();
    }
    case 'Identifier': {
      if (x.name === j) return { text: jText, coef: 1 };
      const alias = aliases?.get(x.name);
      if (alias !== undefined) {
        // in a bound, an alias may read `V.length`: a loop's invariant `n = a.length` (`header`)
        const a = affine(alias, j, jText, ids, lengths, aliases);
        return { ...a, text: `(${a.text})` };
      }
      ids.add(x.name);
      return { text: x.name, coef: 0 };
    }
    case 'Literal':
      if (typeof x.value !== 'number' || !Number.isSafeInteger(x.value)) return refuse();
      return { text: String(x.value), coef: 0 };
    case 'UnaryExpression': {
      if (x.operator !== '-' && x.operator !== '+') return refuse();
      const a = affine(x.argument, j, jText, ids, lengths, aliases);
      return { ...a, text: `(${x.operator}${a.text})`, coef: x.operator === '-' ? -a.coef : a.coef };
    }
    case 'BinaryExpression': {
      const integer = INTEGER_OPERATORS.has(x.operator) || (x.operator === '%' && nonzeroLiteral(x.right));
      if (x.operator !== '+' && x.operator !== '-' && x.operator !== '*' && !integer) return refuse();
      const a = affine(x.left, j, jText, ids, lengths, aliases);
      const b = affine(x.right, j, jText, ids, lengths, aliases);
      const text = `(${a.text} ${x.operator} ${b.text})`;
      if (integer) return a.coef === 0 && b.coef === 0 ? { text, coef: 0 } : refuse();
      if (x.operator === '+' || x.operator === '-') {
        // terms of j with one coefficient part (or none), or a term without j
        const by = a.coef !== 0 ? a.by : b.by;
        if (a.coef !== 0 && b.coef !== 0 && a.by !== b.by) return refuse();
        return { text, coef: x.operator === '+' ? a.coef + b.coef : a.coef - b.coef, by };
      }
      if (a.coef === 0 && b.coef === 0) return { text, coef: 0 };
      const named = (name: string) => aliases?.get(name);
      const la = literalValue(x.left, named);
      const lb = literalValue(x.right, named);
      if (a.coef === 0 && la !== undefined) return { text, coef: la * b.coef, by: b.by };
      if (b.coef === 0 && lb !== undefined) return { text, coef: lb * a.coef, by: a.by };
      // j times a part without it (not a literal): once
      if (a.coef === 0 && b.by === undefined) return { text, coef: b.coef, by: a.text };
      if (b.coef === 0 && a.by === undefined) return { text, coef: a.coef, by: b.text };
      return refuse();
    }
    default:
      return refuse();
  }
}

/** What {@link affine} found: the text, and the coefficient of `j`, `coef` times `by` when `by` is given. */
export interface Affine {
  text: string;
  coef: number;
  by?: string;
}

/**
 * The loop variable's name, `LO`, `HI`, the step, `<=` and `!==` of `loop`, and its invariants: the declarations after
 * the loop variable's in a `let` header (`for (let j = 0, n = a.length; j < n; j++)`), by name, their initializers (each
 * read by the bounds as an alias, `./ranges.ts`); else refuses. With `outer` (a loop of the range checks, not an
 * unrolled inner one), the loop variable may also be declared before the loop (`variable`, its identifier, which the
 * caller tests to be a local the loop may assign): `for (j = LO; ...)`, or no initialization at all (`for (; j < HI;
 * j++)`, a `while` loop's header, {@link whileHeader}), whose `LO` is the variable's value when the loop is entered
 * (`entry`).
 */
export function header(node: E.ForStatement, outer = false) {
  const init = node.init;
  const test = node.test ? unparen(node.test) : null;
  if (
    test?.type !== 'BinaryExpression' ||
    !['<', '<=', '>', '>=', '!==', '!='].includes(test.operator) ||
    unparen(test.left).type !== 'Identifier'
  )
    return refuse();
  const invariants = new Map<string, E.Expression>();
  let j: string;
  let lo: E.Expression;
  // the variable declared before the loop (`for (j = LO; ...)`, `for (; ...)`): the caller tests it to be a local
  let variable: E.Identifier | null = null;
  const entry = outer && init == null;
  if (entry) {
    // `for (; j < HI; j++)`: from the value `j` has on entry
    variable = unparen(test.left) as E.Identifier;
    lo = variable;
    j = variable.name;
  } else if (outer && init?.type === 'AssignmentExpression') {
    // `for (j = LO; ...)` (the body, which runs no other code, may not assign it)
    const target = unparen(init.left);
    if (init.operator !== '=' || target.type !== 'Identifier') return refuse();
    variable = target;
    j = target.name;
    lo = init.right;
  } else {
    if (init?.type !== 'VariableDeclaration' || init.kind === 'const') return refuse();
    const declarations = init.declarations;
    // `let j = LO, n = a.length`: the loop's invariants after its variable, `let` only (a `var` a closure could assign)
    if (declarations.length > 1 && init.kind !== 'let') refuse();
    const names = declarations.map((x) => (x.id.type === 'Identifier' && x.init ? x.id.name : refuse()));
    if (new Set(names).size !== names.length) refuse();
    declarations.forEach((x, k) => {
      // evaluated in order: an initializer may read the invariants before it (aliases), not the loop variable, its own
      // or a later one (in their temporal dead zone: it throws)
      const read = new Map<string, E.Identifier>();
      identifiers(x.init as E.Expression, read);
      if (names.some((name, m) => read.has(name) && (m === 0 || m >= k))) refuse();
      if (k > 0) invariants.set(names[k], x.init as E.Expression);
    });
    j = names[0];
    lo = declarations[0].init as E.Expression;
  }
  if ((unparen(test.left) as E.Identifier).name !== j) refuse();
  const u = node.update ? unparen(node.update) : null;
  // `j !== HI` goes the way of its update; the others' direction is their operator's (`j--` or `j -= c` with `>`)
  const until = test.operator === '!==' || test.operator === '!=';
  const down = until
    ? (u?.type === 'UpdateExpression' && u.operator === '--') ||
      (u?.type === 'AssignmentExpression' && u.operator === '-=')
    : test.operator === '>' || test.operator === '>=';
  let step = 0;
  if (u?.type === 'UpdateExpression' && u.operator === (down ? '--' : '++')) step = 1;
  else if (u?.type === 'AssignmentExpression' && u.operator === (down ? '-=' : '+=')) {
    const c = unparen(u.right);
    if (c.type === 'Literal' && typeof c.value === 'number' && Number.isSafeInteger(c.value) && c.value > 0)
      step = c.value;
  }
  const target =
    u?.type === 'UpdateExpression' ? u.argument : u?.type === 'AssignmentExpression' ? u.left : null;
  if (step === 0 || target === null || unparen(target).type !== 'Identifier') refuse();
  if ((unparen(target as E.Node) as E.Identifier).name !== j) refuse();
  const inclusive = test.operator === '<=' || test.operator === '>=';
  return { j, lo, hi: test.right as E.Expression, step, inclusive, until, down, invariants, entry, variable };
}

/**
 * The header of the `while` loop `node` as a `for` loop's ({@link header} with `outer`: no initialization), when its
 * body is a block whose last statement is the loop variable's update (`while (j < HI) { ...; j++; }`) and that no
 * other statement can skip (no `continue`: the body is planned without it, and a covered loop's `continue` is not
 * allowed); else refuses. @returns the header and the body without its last statement.
 */
export function whileHeader(node: E.WhileStatement): {
  h: ReturnType<typeof header>;
  body: E.BlockStatement;
} {
  if (node.body.type !== 'BlockStatement' || node.body.body.length < 2) return refuse();
  const statements = node.body.body;
  const last = statements[statements.length - 1];
  if (last.type !== 'ExpressionStatement') return refuse();
  const loop: E.ForStatement = {
    type: 'ForStatement',
    init: null,
    test: node.test,
    update: last.expression,
    body: node.body,
  };
  return { h: header(loop, true), body: { ...node.body, body: statements.slice(0, -1) } };
}

/** A number literal node of `value` (a safe integer), standing for an unrolled inner loop's variable. */
export const literal = (value: number): E.Literal => ({ type: 'Literal', value, raw: String(value) });

/**
 * The iterations of the loop of header `h` when both its bounds are number literals, else undefined (also for a
 * `j !== HI` loop that would not reach `HI`).
 */
export function literalIterations(h: ReturnType<typeof header>): number | undefined {
  const value = literalValue;
  const lo = value(h.lo);
  const hi = value(h.hi);
  if (lo === undefined || hi === undefined) return undefined;
  const span = (h.down ? lo - hi : hi - lo) + (h.inclusive ? 1 : 0);
  if (h.until) return span >= 0 && span % h.step === 0 ? span / h.step : undefined;
  return span > 0 ? Math.ceil(span / h.step) : 0;
}
