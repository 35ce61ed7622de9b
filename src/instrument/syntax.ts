/**
 * Questions about ESTree nodes that need no per-file state: parentheses, element accesses, directive prologues,
 * the names a program binds, and which expressions can never be a TypedArray; the typed face of acorn-walk.
 */

import { base, full, recursive } from 'acorn-walk';
import type * as E from 'estree';

/** A node as acorn gives it with `ranges` and `locations`. */
export type N = E.Node & { start: number; end: number; loc: E.SourceLocation };

export type Walk<S> = (node: E.Node, st: S, override?: string) => void;
export type Visitor<S> = (node: E.Node, st: S, c: Walk<S>) => void;
// biome-ignore lint/suspicious/noExplicitAny: acorn-walk's base visitors are generic in their state
export const baseV = base as unknown as Record<string, Visitor<any>>;
export const walk = recursive as unknown as <S>(
  node: E.Node,
  st: S,
  visitors: Record<string, Visitor<S>>,
) => void;
/** acorn-walk's `full`: calls `callback` on every node under `node` (itself included), children first. */
export const everyNode = full as unknown as (node: E.Node, callback: (n: E.Node) => void) => void;

export const LITERAL_TYPES = new Set(['Literal']);

/** Expressions whose value is never a TypedArray: primitives, and objects or functions they create. */
const NOT_VIEWS = new Set([
  'Literal',
  'TemplateLiteral',
  'UnaryExpression',
  'BinaryExpression',
  'UpdateExpression',
  'ObjectExpression',
  'ArrayExpression',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassExpression',
]);

/** Evaluates to the same value, without effects, at any later point: literals and `this`. */
export const isStable = (n: E.Node): boolean => LITERAL_TYPES.has(n.type) || n.type === 'ThisExpression';

export const unparen = (n: E.Node): E.Node => {
  let x = n;
  while (x.type === ('ParenthesizedExpression' as string))
    x = (x as unknown as { expression: E.Node }).expression;
  return x;
};

/**
 * The value of `e` when it is a number literal, possibly negated (parentheses aside), else undefined; an identifier
 * counts as the expression `named` gives for it, if any (a name standing for a literal: an alias of a range-checked
 * loop's body, a module constant, `./ranges.ts`).
 */
export function literalValue(e: E.Node, named?: (name: string) => E.Node | undefined): number | undefined {
  const x = unparen(e);
  if (x.type === 'Literal' && typeof x.value === 'number') return x.value;
  if (x.type === 'UnaryExpression' && x.operator === '-') {
    const v = literalValue(x.argument, named);
    return v === undefined ? undefined : -v;
  }
  const init = x.type === 'Identifier' ? named?.(x.name) : undefined;
  return init === undefined ? undefined : literalValue(init, named);
}

/** `n` (parentheses aside) when it is an element access `o[k]` whose object is not `super`, else null. */
export const elementOf = (n: E.Node): (E.MemberExpression & N) | null => {
  const x = unparen(n);
  return x.type === 'MemberExpression' && x.computed && x.object.type !== 'Super'
    ? (x as E.MemberExpression & N)
    : null;
};

/**
 * The names of call `n` when it is `O.m(...)`, `O` an identifier and `m` one of `methods`, neither the call nor the
 * member optional nor computed (`Atomics.add(...)`, `Math.abs(...)`); else null.
 */
export function namedMethodCall(
  n: E.SimpleCallExpression,
  methods: readonly string[],
): { object: E.Identifier & N; method: string } | null {
  const f = n.callee;
  return !n.optional &&
    f.type === 'MemberExpression' &&
    !f.computed &&
    !f.optional &&
    f.object.type === 'Identifier' &&
    f.property.type === 'Identifier' &&
    methods.includes(f.property.name)
    ? { object: f.object as E.Identifier & N, method: f.property.name }
    : null;
}

/** Can evaluating `x` give a TypedArray? Not for literals, operators giving primitives, or new objects and functions. */
export function mayBeView(x: E.Node): boolean {
  return !NOT_VIEWS.has(unparen(x).type);
}

/** True when a directive prologue (ECMA-262 §11.2.1) of `body` contains `'use strict'`. */
export function hasUseStrict(body: ReadonlyArray<E.Node>): boolean {
  for (const s of body) {
    if (s.type !== 'ExpressionStatement' || !('directive' in s) || typeof s.directive !== 'string')
      return false;
    if (s.directive === 'use strict') return true;
  }
  return false;
}

/**
 * Names bound anywhere in the program (parameters, var/let/const, functions, classes, catch parameters, imports).
 * An identifier with one of these names is taken to be a local binding whose read runs no code; none is when the
 * program has a `with` statement.
 */
export function localNames(program: E.Program): Set<string> {
  const names = new Set<string>();
  let hasWith = false;
  const add = (p: E.Node | null | undefined): void => {
    if (!p) return;
    if (p.type === 'Identifier') names.add(p.name);
    else if (p.type === 'AssignmentPattern') add(p.left);
    else if (p.type === 'RestElement') add(p.argument);
    else if (p.type === 'ArrayPattern') for (const e of p.elements) add(e);
    else if (p.type === 'ObjectPattern')
      for (const prop of p.properties) add(prop.type === 'RestElement' ? prop.argument : prop.value);
  };
  const fn = (f: E.Function) => {
    if ('id' in f) add(f.id);
    for (const p of f.params) add(p);
  };
  const visit = (type: string, f: (n: never) => void): Record<string, Visitor<null>> => ({
    [type]: (n, st, c) => {
      f(n as never);
      baseV[type](n, st, c);
    },
  });
  walk(program, null, {
    ...visit('Function', fn),
    ...visit('VariableDeclarator', (d: E.VariableDeclarator) => add(d.id)),
    ...visit('Class', (k: E.Class) => add(k.id)),
    ...visit('CatchClause', (k: E.CatchClause) => add(k.param)),
    ...visit('ImportDeclaration', (d: E.ImportDeclaration) => {
      for (const s of d.specifiers) add(s.local);
    }),
    ...visit('WithStatement', () => {
      hasWith = true;
    }),
  });
  return hasWith ? new Set() : names;
}
