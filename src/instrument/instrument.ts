/**
 * Load-time rewriting of element accesses `o[k]` so that every read and write of shared memory goes through the
 * hooks of `../hooks/contract.ts`.
 *
 * Parser: acorn (ESTree, `preserveParens` so parenthesized operands keep exact ranges); edits: magic-string, in place,
 * so the text of every operand stays where it was and **line numbers never change** (only columns to the right of an
 * inserted guard move; the site table records the original 1-based line and 1-based column, in UTF-16 code units as
 * V8 counts them).
 *
 * Emitted shape (chosen by `bench/instrument-micro.ts`): the plain access stays at its site, behind an inline guard
 *
 *     (__goldilocks.isView(X) && X !== __gl$c<i> && (__gl$c<i> = __goldilocks.r(X, K, __gl$m, i, __gl$c<i>)) === true
 *       ? __goldilocks.get(X, K, __gl$m, i) : X[K])
 *
 * (`w` and `set` for a write). `__gl$c<i>` is site `i`'s cache: the last view seen there that is not over a
 * SharedArrayBuffer, which `r`/`w` answer for such a view. Each is a `var` of the module's top level (hoisted, so
 * usable before any other code runs, as in an import cycle: it is then undefined). A variable, not an element of
 * `__gl$m`, because a context slot is one load: with the element, the guard cost an accessor method over a
 * Float64Array 2.4× the plain access, with the variable 1.5–1.7× (docs/BENCHMARKS.md, "Accessor methods"). For a shared view `r`/`w` check the access
 * and answer the cache unchanged, so the site performs the access itself (it stays monomorphic), or, for a key
 * that is not a number, answer true: then `get`/`set` convert the key once, check and perform the access.
 *
 * **Loop guards**: in a loop, an access (with everything it contains, on one line) whose objects are variables that
 * cannot change during the loop (parameters, or locals declared before it and assigned only by their declaration,
 * per eslint-scope's analysis of the enclosing function) becomes `(G ? ORIGINAL : GUARDED)`, where `G` tests one
 * local per variable, set once as the loop is entered to whether that variable is *not* a view over shared memory:
 * `__gl$5 = !__goldilocks.shared(a); for (...) ...` (loops that are statements of a statement list; the guard is a
 * statement of its own before the loop). Memory that is not shared then costs a test of a local per access; a
 * shared view takes the guarded path at every access. **Member loop guards**: an access in such a loop whose object
 * is `R.p` (`R` being `this` or an invariant variable) first compares the value it reads of `R.p` with a local set
 * to `__goldilocks.peek(R, "p")` (that value, read without running code, when it is not a shared view) on entry to
 * the outermost loop around it that is not short: `(X === B ? X[K] : GUARDED)`, see `memberGuardOf`.
 *
 * `__gl$m` is a function declaration appended to the module (hoisted too); calling it returns `[file, [line,
 * column, ...]]` for registration. `X`, `K` (and the assigned value) are the
 * original operand expressions when re-reading them is unobservable (literals, `this`, local identifiers when nothing
 * after them can run code), otherwise per-function temporaries `__gl$1, __gl$2, ...` declared with `var` at the end of
 * the enclosing function body (arrow expression bodies become `{return (...);var ...}`; class field initializers and
 * parameter defaults are wrapped in an arrow called in place, since a body `var` is not visible there).
 *
 * Evaluation order follows ECMA-262 §13.15.2 (AssignmentExpression), §13.4 (update expressions), §13.3.2
 * (EvaluatePropertyAccessWithExpressionKey): the object, then the key, then (for compound forms) the read, then the
 * right-hand side, then the write; each operand is evaluated once. ToPropertyKey runs at the read and again at the
 * write of a compound or update form, as V8 does.
 *
 * Forms rewritten: reads; `=`; every compound operator including `**=`, `<<=`, `>>>=`; `&&=`, `||=`, `??=` with their
 * short circuit (the write happens only when the short circuit does not); prefix and postfix `++`/`--` (ToNumeric, so
 * BigInt arrays work; postfix yields the old numeric value); element targets of destructuring assignment and of
 * `for-in`/`for-of` heads (through `__goldilocks.ref(o, k, m, i, strict).v`, a one-shot reference whose setter
 * writes); element reads in optional chains, `o?.[k]`, `a?.b[k].c` (the chain from its first `?.` on becomes
 * conditionals that keep its short circuit: see `rewriteChain`). Copies of a view the engine makes without a call
 * the runtime can patch: the first argument of `new C(x, ...)` (`__goldilocks.copied`: checked when `C` turns out
 * to be a TypedArray constructor), the source of object spread `{ ...x }` and of object patterns with a rest element
 * or integer literal keys in declarations and assignments (`__goldilocks.elements`).
 *
 * Left alone: non-computed `o.p`; `super[k]`; callees `o[k](...)`, `new o[k]`, tags `` o[k]`...` `` (the value of a
 * typed-array element is never callable, so no shared access is missed and `this` is kept); `delete o[k]`; an
 * optional chain that is itself a callee `(a?.[i][j])()`, a tag or the operand of `delete`, or that calls a method
 * of `super` optionally (its element reads are reported as warnings, with their location).
 */

import { createRequire } from 'node:module';
import { type Options, parse } from 'acorn';
import { base, recursive } from 'acorn-walk';
import type * as EslintScope from 'eslint-scope';
import type { Reference, Variable } from 'eslint-scope';
import type * as E from 'estree';
import MagicString from 'magic-string';
import {
  ATOMIC_ARITY,
  ATOMIC_OPS,
  BUFFER_ACCESSORS,
  OBSERVED_METHODS,
  TESTED_ARGUMENT,
  TYPED_ARRAYS,
} from '../hooks/names.js';

/** Name of the per-thread hooks object on `globalThis` (see `../hooks/contract.ts`). */
export const HOOKS_GLOBAL = '__goldilocks';
/** Prefix of every identifier the rewriter introduces; user code must not declare names starting with it. */
export const RESERVED_PREFIX = '__gl$';
const SITE_FN = `${RESERVED_PREFIX}m`;
/** Prefix of the per-site cache variables, `__gl$c<site>` (see the file header). */
const SITE_CACHE = `${RESERVED_PREFIX}c`;

/** What to rewrite: `file` is the URL or path recorded with each site; `module` selects ESM (strict) parsing. */
export interface InstrumentOptions {
  file: string;
  module: boolean;
}

/** The rewritten code, how many sites it registers, and one warning per access left uninstrumented. */
export interface InstrumentResult {
  code: string;
  sites: number;
  warnings: string[];
}

type N = E.Node & { start: number; end: number; loc: E.SourceLocation };

/** Where temporaries of one activation are declared. */
interface Scope {
  temps: number;
  /** 'body': a block (function body, static block) gets `;var ...` before its `}`; 'program': at the end; 'arrow':
   *  an arrow expression body becomes a block; 'wrap': the expression is wrapped in `(() => {...})()`. */
  kind: 'body' | 'program' | 'arrow' | 'wrap';
  node: N;
}

interface State {
  scope: Scope;
  strict: boolean;
  /** The innermost loop around the node in the same function, or null. */
  loop: Loop | null;
  /** The function (or program) whose code this is; null in class static blocks and field initializers. */
  fn: N | null;
}

/** A loop whose element accesses may skip the per-access guard (see {@link instrument}'s loop guards). */
interface Loop {
  node: N;
  /** The function (or program) the loop is in. */
  fn: N;
  /** Where its statement starts: the first of its labels, if any. */
  start: number;
  /** The scope of the function (or program) the loop is in: where its guard temporaries are declared. */
  scope: Scope;
  /** The loop around it in the same function whose body it is in (guards allowed there), else null. */
  outer: Loop | null;
  /** Per invariant variable used as an element access's object in the loop: the temporary of its guard. */
  guards: Map<Variable, string>;
  /**
   * Per member `R.p` used as an element access's object in the loop, `R` being `this` (`base` null) or an invariant
   * variable: the temporary its accesses compare their object with (see `memberGuardOf`).
   */
  members: Array<{ base: Variable | null; p: string; temp: string }>;
}

/** A site as the loop guards see it: its position, and the object of an element access (else null). */
interface SiteNote {
  pos: number;
  object: (E.Identifier & N) | null;
  loop: Loop | null;
}

const LITERAL_TYPES = new Set(['Literal']);
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
/**
 * eslint-scope, from its CommonJS bundle (about 12 ms to load, against about 40 ms for its ESM entry, in every thread
 * that instruments code), loaded with this module: before the thread's loaders are installed, so that it is not
 * itself instrumented (which would re-enter this module while it loads).
 */
const eslintScope = createRequire(import.meta.url)('eslint-scope') as typeof EslintScope;
/**
 * Whether `loop` is a `for` loop whose test is `x < N` or `x <= N` with a number literal `N` of at most 16: short by
 * construction, not worth a member loop guard's `peek` on entry (see `memberGuardOf`).
 */
function isShortLoop(loop: E.Node): boolean {
  if (loop.type !== 'ForStatement' || loop.test?.type !== 'BinaryExpression') return false;
  const t = loop.test;
  return (
    (t.operator === '<' || t.operator === '<=') &&
    t.right.type === 'Literal' &&
    typeof t.right.value === 'number' &&
    t.right.value <= 16
  );
}

/** Loop guards: functions (or programs) longer than this many characters are not analyzed (see `referenceOf`). */
const MAX_ANALYZED = 64 * 1024;

/**
 * Rewrites `source` (a whole module or script) as described in this file's header.
 * @throws SyntaxError (acorn's, with `loc`) when `source` does not parse; the caller passes the original source on so
 * that the engine reports the error itself.
 */
export function instrument(source: string, options: InstrumentOptions): InstrumentResult {
  const parseOptions: Options = {
    ecmaVersion: 'latest',
    sourceType: options.module ? 'module' : 'script',
    locations: true,
    ranges: true, // for eslint-scope
    preserveParens: true,
    allowHashBang: true,
    allowReturnOutsideFunction: !options.module,
    allowAwaitOutsideFunction: options.module,
  };
  const program = parse(source, parseOptions) as unknown as N & E.Program;
  const ms = new MagicString(source);
  const locs: number[] = [];
  const warnings: string[] = [];
  const locals = localNames(program);

  const isLocal = (n: E.Node): boolean =>
    n.type === 'Identifier' && (locals.has(n.name) || n.name === 'arguments');
  /** Evaluates to the same value, without effects, at any later point: literals and `this`. */
  const isStable = (n: E.Node): boolean => LITERAL_TYPES.has(n.type) || n.type === 'ThisExpression';
  /** Evaluating it runs no user code (but later code may change what it names). */
  const isPure = (n: E.Node): boolean => isStable(n) || isLocal(n);

  /** Every site in creation order, for the loop guards (`sites.slice(k)` = the sites of a subtree visited last). */
  const notes: SiteNote[] = [];
  /** A new site at `n`; `element` is the access when it is an element read or write, with state `st`. */
  const newSite = (n: N, element?: { member: E.MemberExpression; st: State }): number => {
    locs.push(n.loc.start.line, n.loc.start.column + 1);
    const object = element === undefined ? null : unparen(element.member.object);
    notes.push({
      pos: n.start,
      object: object?.type === 'Identifier' ? (object as E.Identifier & N) : null,
      loop: element?.st.loop ?? null,
    });
    return locs.length / 2 - 1;
  };
  const temp = (st: State): string => `${RESERVED_PREFIX}${++st.scope.temps}`;

  /** The line breaks of source[a, b): what replaced text keeps so that the lines after it stay where they were. */
  const lineBreaks = (a: number, b: number): string => '\n'.repeat(source.slice(a, b).split('\n').length - 1);

  /** Replaces source[a, b) (punctuation between operands) keeping its line breaks. */
  const gap = (a: number, b: number, text: string, atEnd: boolean): void => {
    if (a === b) {
      if (atEnd) ms.appendLeft(a, text);
      else ms.prependRight(a, text);
      return;
    }
    ms.overwrite(a, b, lineBreaks(a, b) + text, { contentOnly: true });
  };

  /**
   * Emits `node` as a parenthesized sequence: each `kept` operand stays in place behind its prefix, everything else
   * of `node` (punctuation, operands re-emitted by text) is replaced, and `tail` closes the sequence.
   */
  const emit = (node: N, kept: Array<{ node: N; prefix: string }>, tail: string): void => {
    emitted.add(node.start);
    let pos = node.start;
    let first = true;
    for (const k of kept) {
      gap(pos, k.node.start, (first ? '(' : '') + k.prefix, false);
      pos = k.node.end;
      first = false;
    }
    gap(pos, node.end, `${first ? '(' : ''}${tail})`, true);
  };

  /** Operand plan: a temporary when re-reading it later could differ or run code, else its own text. */
  const plan = (st: State, operand: N, stable: boolean) =>
    stable ? { text: source.slice(operand.start, operand.end), temp: null } : { text: '', temp: temp(st) };

  /** The sites that have a cache variable (element reads and writes), declared with the module's temporaries. */
  const cached = new Set<number>();
  /** Site `i`'s cache variable: the last view seen there that is not over shared memory. */
  const cacheOf = (i: number): string => {
    cached.add(i);
    return `${SITE_CACHE}${i}`;
  };
  const guard = (x: string, i: number): string => `${HOOKS_GLOBAL}.isView(${x}) && ${x} !== ${cacheOf(i)}`;
  const checked = (g: string, hook: 'r' | 'w', x: string, k: string, i: number): string =>
    `${g} && (${cacheOf(i)} = ${HOOKS_GLOBAL}.${hook}(${x}, ${k}, ${SITE_FN}, ${i}, ${cacheOf(i)})) === true`;
  const read = (x: string, k: string, i: number, g?: string): string =>
    `${checked(g ?? guard(x, i), 'r', x, k, i)} ? ${HOOKS_GLOBAL}.get(${x}, ${k}, ${SITE_FN}, ${i}) : ${x}[${k}]`;
  const write = (x: string, k: string, v: string, i: number, g?: string): string =>
    `${checked(g ?? guard(x, i), 'w', x, k, i)} ? ${HOOKS_GLOBAL}.set(${x}, ${k}, ${v}, ${SITE_FN}, ${i}) : ${x}[${k}] = ${v}`;

  /** Plans object and key of `member`, given whether everything evaluated after the key is pure. */
  const planTarget = (st: State, member: E.MemberExpression & N, restPure: boolean) => {
    const obj = member.object as N;
    const key = member.property as N;
    const keyStable = LITERAL_TYPES.has(key.type) || (restPure && isPure(key));
    const objStable = isStable(obj) || (isPure(obj) && keyStable && isPure(key) && restPure);
    const o = plan(st, obj, objStable);
    const k = plan(st, key, keyStable);
    const kept: Array<{ node: N; prefix: string }> = [];
    if (o.temp) kept.push({ node: obj, prefix: `${o.temp} = ` });
    if (k.temp) kept.push({ node: key, prefix: `${kept.length ? ', ' : ''}${k.temp} = ` });
    return { x: o.temp ?? o.text, k: k.temp ?? k.text, kept };
  };
  const sep = (kept: unknown[]): string => (kept.length ? ', ' : '');
  /** With a member loop guard `b` (see `memberGuardOf`): `access` on object `x` when `x` is `b`, else what follows. */
  const plainIf = (b: string | null, x: string, access: string): string =>
    b ? `${x} === ${b} ? ${access} : ` : '';
  /**
   * The read of a compound assignment or update of `member` at site `i`, target `t` planned: `head` sets a temporary
   * to the guard (the member loop guard's test first) and temporary `r` to the value read; `store` writes `r` back
   * under the same guard.
   */
  const readForWrite = (st: State, member: E.MemberExpression, t: { x: string; k: string }, i: number) => {
    const b = memberGuardOf(st, member);
    const g = temp(st);
    const r = temp(st);
    const head = `${g} = ${b ? `${t.x} !== ${b} && ` : ''}${guard(t.x, i)}, ${r} = ${read(t.x, t.k, i, g)}`;
    return { head, r, store: write(t.x, t.k, r, i, g) };
  };

  const rewriteRead = (node: E.MemberExpression & N, st: State): void => {
    const i = newSite(node, { member: node, st });
    const t = planTarget(st, node, true);
    const fast = plainIf(memberGuardOf(st, node), t.x, `${t.x}[${t.k}]`);
    emit(node, t.kept, sep(t.kept) + fast + read(t.x, t.k, i));
  };

  const rewriteAssign = (
    node: E.AssignmentExpression & N,
    member: E.MemberExpression & N,
    st: State,
  ): void => {
    const i = newSite(member, { member, st });
    const value = node.right as N;
    const valuePure = isPure(value);
    // A compound form reads o[k] (which may run a getter) before its write: only stable operands are re-read.
    const t = planTarget(st, member, valuePure && node.operator === '=');
    if (node.operator === '=') {
      const b = memberGuardOf(st, member);
      const v = plan(st, value, valuePure);
      if (v.temp) t.kept.push({ node: value, prefix: `${sep(t.kept)}${v.temp} = ` });
      const x = v.temp ?? v.text;
      emit(node, t.kept, sep(t.kept) + plainIf(b, t.x, `${t.x}[${t.k}] = ${x}`) + write(t.x, t.k, x, i));
      return;
    }
    const { head, r, store } = readForWrite(st, member, t, i);
    const op = node.operator.slice(0, -1);
    const logical = op === '&&' || op === '||' || op === '??';
    if (valuePure) {
      const v = source.slice(value.start, value.end);
      const body = logical ? `${r} ${op} (${r} = ${v}, ${store})` : `${r} = ${r} ${op} ${v}, ${store}`;
      emit(node, t.kept, `${sep(t.kept)}${head}, ${body}`);
      return;
    }
    const open = logical ? `${r} ${op} (${r} = (` : `${r} = ${r} ${op} (`;
    t.kept.push({ node: value, prefix: `${sep(t.kept)}${head}, ${open}` });
    emit(node, t.kept, logical ? `), ${store})` : `), ${store}`);
  };

  const rewriteUpdate = (node: E.UpdateExpression & N, member: E.MemberExpression & N, st: State): void => {
    const i = newSite(member, { member, st });
    const t = planTarget(st, member, false);
    const { head, r, store } = readForWrite(st, member, t, i);
    if (node.prefix) {
      emit(node, t.kept, `${sep(t.kept)}${head}, ${node.operator}${r}, ${store}`);
      return;
    }
    const old = temp(st);
    emit(node, t.kept, `${sep(t.kept)}${head}, ${old} = ${r}${node.operator}, ${store}, ${old}`);
  };

  /** A destructuring or for-in/of target `o[k]`: `__goldilocks.ref(o, k, __gl$m, i, strict).v`. */
  const rewriteTarget = (member: E.MemberExpression & N, st: State): void => {
    const i = newSite(member);
    const obj = member.object as N;
    const key = member.property as N;
    gap(member.start, obj.start, `${HOOKS_GLOBAL}.ref(`, false);
    gap(obj.end, key.start, ', ', false);
    gap(key.end, member.end, `, ${SITE_FN}, ${i}, ${st.strict}).v`, true);
  };

  const unparen = (n: E.Node): E.Node => {
    let x = n;
    while (x.type === ('ParenthesizedExpression' as string))
      x = (x as unknown as { expression: E.Node }).expression;
    return x;
  };
  const elementOf = (n: E.Node): (E.MemberExpression & N) | null => {
    const x = unparen(n);
    return x.type === 'MemberExpression' && x.computed && x.object.type !== 'Super'
      ? (x as E.MemberExpression & N)
      : null;
  };
  /** Visits the operands of a member expression (or optional chain) that is itself left as it is. */
  const operandsOnly = (n: E.Node, st: State, c: Walk<State>): void => {
    const x = unparen(n);
    if (x.type === 'ChainExpression') {
      rewriteChain(x as E.ChainExpression & N, st, c, false);
      return;
    }
    if (x.type !== 'MemberExpression') {
      c(n, st);
      return;
    }
    if (x.object.type !== 'Super') c(x.object, st);
    if (x.computed) c(x.property, st);
  };

  /**
   * An optional chain (ECMA-262 §13.3.9) whose element reads at or after its first `?.` are rewritten: from the
   * first `?.` on, the chain becomes conditionals, each optional link `X?.` being `(t = X) == null ? undefined :`
   * followed by the rest of the chain on `t` (so one nullish link still skips all the rest), and each element read
   * a guarded read as elsewhere. An optional call of a method, `o.m?.(...)`, becomes `(f = (t = o).m) == null ?
   * undefined : f.call(t, ...)`. The head, keys and arguments stay in place as operands, in source order, each
   * evaluated once. Links before the first `?.` are ordinary accesses, and a callee `o[k]` is left as it is
   * (as elsewhere). When `restructure` is false (the chain is a callee, a tag or the operand of `delete`, whose
   * reference a conditional would lose) or the method of an optional call is on `super`, the chain stays as it
   * is, with a warning per element read in it.
   */
  function rewriteChain(chain: E.ChainExpression & N, st: State, c: Walk<State>, restructure: boolean): void {
    type Link = (E.MemberExpression | E.SimpleCallExpression) & N;
    const links: Link[] = [];
    let x = chain.expression as E.Node;
    while (x.type === 'MemberExpression' || x.type === 'CallExpression') {
      links.unshift(x as Link);
      x = x.type === 'MemberExpression' ? x.object : x.callee;
    }
    let start = links.findIndex((l) => l.optional);
    // an optional method call keeps its `this`: the chain starts at the method's member link
    if (links[start].type === 'CallExpression' && start > 0 && links[start - 1].type === 'MemberExpression')
      start--;
    const head = (start === 0 ? x : links[start - 1]) as N;
    const isCallee = (j: number) => links[j + 1]?.type === 'CallExpression';
    /** Element reads from `start` on (the last link is not one when the chain is left as it is). */
    const reads = links
      .map((l, j) => (j >= start && l.type === 'MemberExpression' && l.computed && !isCallee(j) ? j : -1))
      .filter((j) => j >= 0 && (restructure || j < links.length - 1));
    if (head.type !== 'Super') c(head, st);
    for (const l of links.slice(start)) {
      if (l.type === 'MemberExpression') {
        if (l.computed) c(l.property, st);
      } else for (const arg of l.arguments) c(arg, st);
    }
    if (reads.length === 0) return;
    if (!restructure || head.type === 'Super') {
      for (const j of reads) {
        const l = links[j].loc.start;
        warnings.push(
          `${options.file}:${l.line}:${l.column + 1}: element access in an optional chain is not instrumented`,
        );
      }
      return;
    }
    type Piece = string | N;
    const out: Piece[] = [];
    let cur: Piece[] = [head];
    let self = ''; // the temporary holding the object of a method called by the next (optional) link
    for (let j = start; j < links.length; j++) {
      const l = links[j];
      if (l.optional) {
        const t = temp(st);
        out.push(`(${t} = `, ...cur, ') == null ? undefined : ');
        cur = l.type === 'CallExpression' && self ? [`${t}.call(${self}`] : [t];
        if (l.type === 'CallExpression' && !self) cur.push('(');
      } else if (l.type === 'CallExpression') cur.push('(');
      if (l.type === 'CallExpression') {
        l.arguments.forEach((arg, n) => {
          cur.push(n > 0 || self ? ', ' : '', arg as N);
        });
        cur.push(')');
        self = '';
        continue;
      }
      const method = links[j + 1]?.type === 'CallExpression' && links[j + 1].optional;
      if (method) {
        self = temp(st);
        cur = [`(${self} = `, ...cur, ')'];
      }
      const key = l.property as N;
      if (!l.computed) cur.push(`.${source.slice(key.start, key.end)}`);
      else if (!reads.includes(j)) cur.push('[', key, ']');
      else {
        const i = newSite(l);
        const pre: Piece[] = [];
        let o: string;
        if (cur.length === 1 && typeof cur[0] === 'string') o = cur[0];
        else {
          o = temp(st);
          pre.push(`${o} = `, ...cur, ', ');
        }
        let k = source.slice(key.start, key.end);
        if (!LITERAL_TYPES.has(key.type)) {
          k = temp(st);
          pre.push(`${k} = (`, key, '), ');
        }
        cur = ['(', ...pre, `${read(o, k, i)})`];
      }
    }
    out.push(...cur);
    const kept: Array<{ node: N; prefix: string }> = [];
    let text = '';
    for (const piece of out) {
      if (typeof piece === 'string') text += piece;
      else {
        kept.push({ node: piece, prefix: text });
        text = '';
      }
    }
    emit(chain, kept, text);
  }

  // ---- loop guards ----

  /** The outermost of the labels of a labeled statement's body. */
  const outerLabel = new Map<E.Node, N>();
  /**
   * Statements of statement lists (a program's, a block's, a `case`'s): a loop guard is set by a statement of its
   * own before the loop, which needs a list to go in (a loop that is the body of an `if`, `for`... has no guards).
   */
  const listed = new Set<E.Node>(program.body);
  /**
   * Per function (or the program) with a loop: its references by identifier node, from eslint-scope's analysis of
   * that function alone (its free variables are then unresolved: not loop-guarded); null for one of more than
   * {@link MAX_ANALYZED} characters (the analysis costs about as much as the rest of the rewriting).
   */
  const analyses = new Map<N, Map<E.Node, Reference> | null>();
  const referenceOf = (id: E.Identifier, fn: N): Reference | undefined => {
    let refs = analyses.get(fn);
    if (refs === undefined) {
      refs = null;
      if (fn.end - fn.start <= MAX_ANALYZED) {
        const body =
          fn.type === 'Program'
            ? (fn as unknown as E.Program).body
            : fn.type === 'FunctionDeclaration'
              ? [fn as unknown as E.FunctionDeclaration]
              : [{ type: 'ExpressionStatement', expression: fn } as E.ExpressionStatement];
        const manager = eslintScope.analyze({ type: 'Program', body, sourceType: 'script' } as E.Program, {
          ecmaVersion: 2022,
          sourceType: options.module ? 'module' : 'script',
          fallback: 'iteration',
        });
        refs = new Map();
        for (const scope of manager.scopes)
          for (const r of scope.references) refs.set(r.identifier as E.Identifier, r);
      }
      analyses.set(fn, refs);
    }
    return refs?.get(id);
  };

  /**
   * Whether `v` holds the same value throughout every execution of `loop` and can be read without an exception
   * before it (no temporal dead zone), from code in the function `fn`: a parameter of a function that does not use
   * `arguments` (which may alias it), or a `var`, `let` or `const` of `fn` (a `let`/`const` declared before the
   * loop in a block around it, not a `switch`'s), never assigned except by its declaration outside the loop;
   * not a global of a script (a property of the global object), not reachable from a direct `eval` or `with`.
   */
  const invariant = (v: Variable, loop: Loop, fn: unknown): boolean => {
    if (v.tainted || v.defs.length !== 1 || v.scope.type === 'global') return false;
    const node = loop.node;
    const inside = (n: E.Node) => (n as N).start >= node.start && (n as N).end <= node.end;
    for (const r of v.references)
      if (r.isWrite() && (!r.init || inside(r.identifier as E.Identifier))) return false;
    const d = v.defs[0];
    if (d.type === 'Parameter') return (v.scope.set.get('arguments')?.references.length ?? 0) === 0;
    if (d.type !== 'Variable' || v.scope.variableScope !== fn) return false;
    if (d.parent.kind === 'var') return true;
    const block = v.scope.block as N;
    return (
      v.scope.type !== 'switch' &&
      (d.parent as N).end <= node.start &&
      block.start <= node.start &&
      node.end <= block.end
    );
  };

  /** The variable `id` names, when it is invariant in `loop` (see `invariant`), else null. */
  const invariantVariable = (loop: Loop, id: E.Identifier): Variable | null => {
    const r = referenceOf(id, loop.fn);
    const v = r?.resolved;
    return r && v && invariant(v, loop, r.from.variableScope) ? v : null;
  };

  /** Constructors of classes with an `extends` clause: `this` is in its temporal dead zone until `super()`. */
  const derivedConstructors = new Set<E.Node>();

  /**
   * Member loop guards: when the object of the element access `member` is `R.p` (`p` a name, `R` either `this` in
   * a non-arrow function other than a derived class's constructor, or a variable invariant in the access's loop),
   * the temporary `B` that a loop around the access sets once on entry to `__goldilocks.peek(R, "p")`, allocating
   * it; else null. `peek` answers the value of `R.p` when reading it runs no code and it is not a view over shared
   * memory, else an object nothing else holds. The access then first compares its object (the value it read of
   * `R.p`) with `B`: equal, it is not over shared memory and the plain access runs; else the per-access guard as
   * elsewhere. Sound whatever `R.p` becomes during the loop, since a view's buffer never changes; fast while `R.p` is
   * the value it had on entry. Like the loop guards, the compared path is the only one a loop over memory that is
   * not shared takes, so V8 leaves the guarded path out of the optimized loop (`bench/instrument-micro.ts`).
   * `peek` costs about as much as tens of accesses, so the loop that runs it is the outermost one around the access
   * (in its function, `R` invariant in it) that is not {@link isShortLoop}; when all are short, no guard.
   */
  const memberGuardOf = (st: State, member: E.MemberExpression): string | null => {
    const obj = unparen(member.object);
    if (
      st.loop === null ||
      obj.type !== 'MemberExpression' ||
      obj.computed ||
      obj.property.type !== 'Identifier'
    )
      return null;
    const root = unparen(obj.object);
    const fn = st.loop.fn;
    if (
      root.type === 'ThisExpression'
        ? !(fn.type === 'Program' || fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') ||
          derivedConstructors.has(fn)
        : root.type !== 'Identifier'
    )
      return null;
    let loop: Loop | null = null;
    let base: Variable | null = null;
    for (let l: Loop | null = st.loop; l !== null; l = l.outer) {
      let v: Variable | null = null;
      if (root.type === 'Identifier') {
        v = invariantVariable(l, root); // invariant in a loop, then in every loop inside it
        if (v === null) break;
      }
      if (!isShortLoop(l.node)) {
        loop = l;
        base = v;
      }
    }
    if (loop === null) return null;
    const p = obj.property.name;
    let m = loop.members.find((x) => x.base === base && x.p === p);
    if (m === undefined) {
      m = { base, p, temp: `${RESERVED_PREFIX}${++loop.scope.temps}` };
      loop.members.push(m);
    }
    return m.temp;
  };

  /**
   * The guard temporary of `id` (an element access's object) in `loop`, allocating it; null when `id` does not
   * name a variable invariant in the loop.
   */
  const guardOf = (loop: Loop, id: E.Identifier & N): string | null => {
    const v = invariantVariable(loop, id);
    if (v === null) return null;
    let g = loop.guards.get(v);
    if (g === undefined) {
      g = `${RESERVED_PREFIX}${++loop.scope.temps}`;
      loop.guards.set(v, g);
    }
    return g;
  };

  /**
   * Loop guards: the rewritten element access `node` (its own site and the sites of its subtree, `notes` from
   * `before` on) becomes `(G ? ORIGINAL : REWRITTEN)` when it is on one line, every site in it is an element
   * access of the same loop, and each access's object is a variable invariant in that loop; `G` tests the guard
   * temporaries of those variables, which the loop sets once on entry (`inLoop`) to whether each is *not* a view
   * over shared memory. While none is, the loop runs the original accesses: one test of a local per access, which
   * the JIT keeps out of the way of the access itself (the per-access guard's cache miss on first use is what
   * keeps V8 from combining the checks of several accesses to one array). A shared view's accesses take the
   * rewritten path as before. One line only: the copy must not move the lines after it.
   */
  const loopGuarded = (node: N, before: number, st: State): void => {
    const loop = st.loop;
    if (loop === null || before === notes.length) return;
    const text = source.slice(node.start, node.end);
    if (/[\n\r\u2028\u2029]/.test(text)) return;
    const guards: string[] = [];
    for (let j = before; j < notes.length; j++) {
      const note = notes[j];
      if (note.loop !== loop || note.object === null) return;
      const g = guardOf(loop, note.object);
      if (g === null) return;
      if (!guards.includes(g)) guards.push(g);
    }
    ms.overwrite(
      node.start,
      node.end,
      `(${guards.join(' && ')} ? ${text} : ${ms.slice(node.start, node.end)})`,
    );
  };

  /** A loop visitor: the loop's sites may use its guards, which are set before the loop (see `loopGuarded`). */
  const inLoop =
    (visit: Visitor<State>): Visitor<State> =>
    (node, st, c) => {
      const n = node as N;
      const statement = outerLabel.get(n) ?? n;
      if (st.fn === null || !listed.has(statement)) {
        visit(node, { ...st, loop: null }, c);
        return;
      }
      const loop: Loop = {
        node: n,
        fn: st.fn,
        start: statement.start,
        scope: st.scope,
        outer: st.loop,
        guards: new Map(),
        members: [],
      };
      visit(node, { ...st, loop }, c);
      if (loop.guards.size === 0 && loop.members.length === 0) return;
      const set = [
        ...[...loop.guards].map(([v, g]) => `${g} = !${HOOKS_GLOBAL}.shared(${v.name})`),
        ...loop.members.map(
          (m) => `${m.temp} = ${HOOKS_GLOBAL}.peek(${m.base?.name ?? 'this'}, ${JSON.stringify(m.p)})`,
        ),
      ];
      // a statement of its own, not a block around the loop: nothing is inserted where the next statement starts
      ms.prependLeft(loop.start, `${set.join(', ')}; `);
    };

  const closeScope = (scope: Scope): void => {
    if (scope.temps === 0) return;
    const names = Array.from({ length: scope.temps }, (_, j) => `${RESERVED_PREFIX}${j + 1}`).join(', ');
    const n = scope.node;
    if (scope.kind === 'body') ms.appendLeft(n.end - 1, `;var ${names};`);
    else if (scope.kind === 'arrow') {
      ms.prependRight(n.start, '{return (');
      ms.appendLeft(n.end, `);var ${names}}`);
    } else if (scope.kind === 'wrap') {
      ms.prependRight(n.start, '(() => {return (');
      ms.appendLeft(n.end, `);var ${names}})()`);
    }
  };
  /** Walks code with its own temporaries; `fn` is the function whose body it is (else null, see {@link State}). */
  const inScope = (
    kind: Scope['kind'],
    node: E.Node,
    strict: boolean,
    f: (st: State) => void,
    fn: N | null = null,
  ): void => {
    const scope: Scope = { temps: 0, kind, node: node as N };
    f({ scope, strict, loop: null, fn });
    closeScope(scope);
  };

  /** Start offsets of the rewritten expressions (each now begins with `(`). */
  const emitted = new Set<number>();
  const visitors: Record<string, Visitor<State>> = {
    ExpressionStatement(node, st, c) {
      baseV.ExpressionStatement(node, st, c);
      // A statement now beginning with `(` would continue a previous line that has no semicolon (ASI does not
      // apply before `(`): `void 0, ` keeps it a statement of its own, also as the body of an `if`.
      if (emitted.has((node as N).start)) ms.prependLeft((node as N).start, 'void 0, ');
    },
    MemberExpression(node, st, c) {
      const before = notes.length;
      baseV.MemberExpression(node, st, c);
      const m = elementOf(node as E.Node);
      if (m) {
        rewriteRead(m, st);
        loopGuarded(m, before, st);
      }
    },
    MemberPattern(node, st, c) {
      operandsOnly(node as E.Node, st, c);
      const m = elementOf(node as E.Node);
      if (m) rewriteTarget(m, st);
    },
    Pattern(node, st, c) {
      const x = unparen(node as E.Node);
      if (x.type === 'MemberExpression') c(x, st, 'MemberPattern');
      else baseV.Pattern(node, st, c);
    },
    AssignmentExpression(node, st, c) {
      const n = node as E.AssignmentExpression & N;
      const before = notes.length;
      writeForm(n, n.left, st, c, (m) => {
        c(n.right, st);
        rewriteAssign(n, m, st);
        loopGuarded(n, before, st);
      });
      if (n.operator === '=') patternSource(n.left, n.right as N);
    },
    VariableDeclarator(node, st, c) {
      const n = node as E.VariableDeclarator;
      baseV.VariableDeclarator(n, st, c);
      if (n.init) patternSource(n.id, n.init as N);
    },
    ObjectExpression(node, st, c) {
      baseV.ObjectExpression(node, st, c);
      for (const p of (node as E.ObjectExpression).properties)
        if (p.type === 'SpreadElement' && mayBeView(p.argument)) wrapElements(p as N, p.argument as N, '');
    },
    UpdateExpression(node, st, c) {
      const n = node as E.UpdateExpression & N;
      const before = notes.length;
      writeForm(n, n.argument, st, c, (m) => {
        rewriteUpdate(n, m, st);
        loopGuarded(n, before, st);
      });
    },
    LabeledStatement(node, st, c) {
      const n = node as E.LabeledStatement & N;
      outerLabel.set(n.body, outerLabel.get(n) ?? n);
      baseV.LabeledStatement(node, st, c);
    },
    BlockStatement(node, st, c) {
      for (const s of (node as E.BlockStatement).body) listed.add(s);
      baseV.BlockStatement(node, st, c);
    },
    SwitchCase(node, st, c) {
      for (const s of (node as E.SwitchCase).consequent) listed.add(s);
      baseV.SwitchCase(node, st, c);
    },
    ForStatement: inLoop(baseV.ForStatement),
    WhileStatement: inLoop(baseV.WhileStatement),
    DoWhileStatement: inLoop(baseV.DoWhileStatement),
    CallExpression: callLike,
    NewExpression: callLike,
    TaggedTemplateExpression(node, st, c) {
      const n = node as E.TaggedTemplateExpression;
      operandsOnly(n.tag, st, c);
      c(n.quasi, st);
    },
    UnaryExpression(node, st, c) {
      const n = node as E.UnaryExpression;
      if (n.operator === 'delete') operandsOnly(n.argument, st, c);
      else c(n.argument, st);
    },
    ChainExpression(node, st, c) {
      rewriteChain(node as E.ChainExpression & N, st, c, true);
    },
    ForInStatement: inLoop(forInOf),
    ForOfStatement: inLoop(forInOf),
    Function(node, st, c) {
      const f = node as E.Function & N;
      const strict = st.strict || (f.body.type === 'BlockStatement' && hasUseStrict(f.body.body));
      const inner: State = { scope: st.scope, strict, loop: null, fn: null };
      for (const p of f.params) paramDefaults(p as N, inner, c);
      if (f.body.type === 'BlockStatement') inScope('body', f.body, strict, (s) => c(f.body, s), f);
      else inScope('arrow', f.body, strict, (s) => c(f.body, s, 'Expression'), f);
    },
    Class(node, st, c) {
      const k = node as E.Class;
      if (k.superClass) {
        c(k.superClass, st);
        for (const el of k.body.body)
          if (el.type === 'MethodDefinition' && el.kind === 'constructor') derivedConstructors.add(el.value);
      }
      const strict: State = { scope: st.scope, strict: true, loop: null, fn: null };
      for (const el of k.body.body) {
        if (el.type === 'StaticBlock') {
          inScope('body', el, true, (s) => baseV.StaticBlock(el, s, c));
          continue;
        }
        if (el.computed) c(el.key, strict);
        if (el.type === 'PropertyDefinition' && el.value) {
          const v = el.value;
          inScope('wrap', v, true, (s) => c(v, s));
        } else if (el.type === 'MethodDefinition') c(el.value, strict);
      }
    },
  };

  /** An assignment or update: when its target is an element access, visits the target's operands then `rewrite`. */
  function writeForm(
    node: E.Node,
    target: E.Node,
    st: State,
    c: Walk<State>,
    rewrite: (m: E.MemberExpression & N) => void,
  ) {
    const m = elementOf(target);
    if (!m) {
      baseV[node.type](node, st, c);
      return;
    }
    operandsOnly(m, st, c);
    rewrite(m);
  }

  /** Calls, `new`: a callee `o[k]` is left as it is (it keeps its `this`); its operands and the arguments are visited. */
  function callLike(node: E.Node, st: State, c: Walk<State>): void {
    const n = node as E.CallExpression | E.NewExpression;
    operandsOnly(n.callee, st, c);
    for (const a of n.arguments) c(a, st);
    if (n.type === 'CallExpression') {
      if (!atomicsCall(n as E.SimpleCallExpression & N)) methodCall(n as E.SimpleCallExpression & N, st);
    } else typedArrayNew(n as E.NewExpression & N, st);
  }

  /**
   * `new Float64Array(x, ...)` (a global TypedArray constructor, x not a spread) becomes
   * `new Float64Array(__goldilocks.copied(__gl$m, i, x), ...)`: a copy of a shared view is checked as a read of it.
   * Any other constructor, `new C(x, ...)` with an `x` that may be a view, becomes `new C(__goldilocks.copied(__gl$m, i, x, C), ...)` (`C` re-read when it is an identifier and `x`
   * is pure, else `new (t = C)(... t)`): the hook checks the copy when `C` turns out to be a TypedArray
   * constructor or a subclass of one (`const F = Float64Array; new F(v)`, `class M extends Uint8Array {}`).
   */
  function typedArrayNew(n: E.NewExpression & N, st: State): void {
    const callee = n.callee as N;
    const x = n.arguments[0] as (E.Expression & N) | E.SpreadElement | undefined;
    if (x === undefined || x.type === 'SpreadElement') return;
    const global =
      callee.type === 'Identifier' &&
      (TYPED_ARRAYS as readonly string[]).includes(callee.name) &&
      !isLocal(callee);
    if (global) {
      wrapElements(n, x, '', 'copied');
      return;
    }
    if (!mayBeView(x) || (callee.type === 'Identifier' && NOT_COPYING.has(callee.name) && !isLocal(callee)))
      return;
    let ctor = source.slice(callee.start, callee.end);
    if (callee.type !== 'Identifier' || !isPure(x)) {
      ctor = temp(st);
      ms.prependLeft(callee.start, `(${ctor} = `);
      ms.appendRight(callee.end, ')');
    }
    wrapElements(n, x, ctor, 'copied');
  }

  /** Can evaluating `x` give a TypedArray? Not for literals, operators giving primitives, or new objects and functions. */
  function mayBeView(x: E.Node): boolean {
    return !NOT_VIEWS.has(unparen(x).type);
  }

  /**
   * Wraps operand `x` as `__goldilocks.<hook>(__gl$m, i, x[, extra])` with a new site at `at`: `elements` (the
   * default; `extra` the literal keys, or '' for all elements) or `copied` (`extra` the constructor).
   */
  function wrapElements(at: N, x: N, extra: string, hook: 'elements' | 'copied' = 'elements'): void {
    const i = newSite(at);
    ms.prependLeft(x.start, `${HOOKS_GLOBAL}.${hook}(${SITE_FN}, ${i}, `);
    ms.appendRight(x.end, extra ? `, ${extra})` : ')');
  }

  /**
   * The source `x` of object pattern `target` (a declaration's initializer or an assignment's right side): wrapped
   * with the `elements` hook when the pattern reads elements of a view — every element when it has a rest
   * element (CopyDataProperties reads all the keys the other properties do not), else those of its integer
   * literal keys (`const { 0: a, length } = view`). A pattern with a computed key and no rest is left as it is
   * (which elements it reads is known only as it runs).
   */
  function patternSource(target: E.Node, x: N): void {
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
    if (rest) wrapElements(pattern as N, x, '');
    else if (keys.length) wrapElements(pattern as N, x, `[${keys.join(', ')}]`);
  }

  /**
   * `Atomics.add(args)` (the global `Atomics`, a name of ATOMIC_OPS, not optional) becomes
   * `__goldilocks.atomics.add(__gl$m, i, args)`: the same call, with its static site (`atomicsRest` for a call with a
   * spread or more than ATOMIC_ARITY arguments).
   */
  function atomicsCall(n: E.SimpleCallExpression & N): boolean {
    const callee = n.callee;
    if (
      n.optional ||
      callee.type !== 'MemberExpression' ||
      callee.computed ||
      callee.optional ||
      callee.object.type !== 'Identifier' ||
      callee.object.name !== 'Atomics' ||
      isLocal(callee.object) ||
      callee.property.type !== 'Identifier' ||
      !(ATOMIC_OPS as readonly string[]).includes(callee.property.name)
    )
      return false;
    const paren = parenAfter(n);
    if (paren < 0) return false;
    const i = newSite(n);
    const { start, end } = callee as N;
    const fixed =
      n.arguments.length <= ATOMIC_ARITY && n.arguments.every((arg) => arg.type !== 'SpreadElement');
    // `Atomics\n.add`: its line breaks stay
    const name = `${HOOKS_GLOBAL}.atomics${fixed ? '' : 'Rest'}.${callee.property.name}`;
    ms.overwrite(start, end, name + lineBreaks(start, end));
    ms.appendLeft(paren + 1, `${SITE_FN}, ${i}${n.arguments.length ? ', ' : ''}`);
    return true;
  }

  /** The position of the '(' right after call `n`'s callee, or -1 (anything else between them, e.g. a comment). */
  function parenAfter(n: E.SimpleCallExpression & N): number {
    let paren = (n.callee as N).end;
    while (paren < n.end && /\s/.test(source[paren])) paren++;
    return source[paren] === '(' ? paren : -1;
  }

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
   * a method the runtime observes on other receivers: see {@link Hooks.callee}) it calls `sited` with `this` the
   * record `site` made, which calls `f` with its static site pending (so a patched method does not capture a stack
   * for it); otherwise `g`: `f` itself, or on a view that is not over shared memory the built-in method the runtime
   * replaced, at the cost of the test (bench:instrument).
   *
   * The arguments evaluated apart are those up to the one the method may touch shared memory through
   * ({@link TESTED_ARGUMENT}: the second for `encodeInto`, whose call becomes `callee1(o, f = o.name, k, (a = arg0,
   * b = arg1))`, then `call(..., t, a, b, ...other args)`); with fewer arguments or a spread among them, none
   * (`callee`). A call of a Buffer number accessor ({@link BUFFER_ACCESSORS}) without a spread evaluates all of them
   * apart and calls `__goldilocks.direct[k]` itself where `g` is it: a constant target, which V8 inlines, where `g`
   * is one it does not know (bench:instrument, `Buffer#readUInt32LE`):
   *
   *     ((g = __goldilocks.callee1(o, f = o.name, k, (a = arg0, b = arg1, a))), g === __goldilocks.direct[k]
   *       ? __goldilocks.call(__goldilocks.direct[k], o, a, b) : __goldilocks.call(g !== null ? ..., t, a, b))
   */
  function methodCall(n: E.SimpleCallExpression & N, st: State): void {
    const callee = n.callee as N;
    if (n.optional || callee.type !== 'MemberExpression' || callee.computed || callee.optional) return;
    const property = callee.property;
    if (property.type !== 'Identifier') return;
    const k = OBSERVED_METHODS.indexOf(property.name);
    if (k < 0) return;
    const text = source.slice(callee.start, callee.end);
    if (!/^[\w$]+(\.[\w$]+)+$/.test(text)) return;
    const paren = parenAfter(n);
    if (paren < 0) return;
    const object = callee.object as N;
    if (object.type === 'Super') return;
    const edited = ms.slice(object.start, object.end);
    const noSpread = (args: readonly (E.Expression | E.SpreadElement)[]): boolean =>
      args.every((arg) => arg.type !== 'SpreadElement');
    // the arguments evaluated apart, into temporaries, inside the test: up to the one the method may touch shared
    // memory through (TESTED_ARGUMENT), or, for a Buffer number accessor called as direct[k], all of them
    const accessor = BUFFER_ACCESSORS.includes(property.name) && noSpread(n.arguments);
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
    const i = newSite(n);
    const f = temp(st);
    const g = temp(st);
    const t = temp(st);
    const H = HOOKS_GLOBAL;
    const temps = apartArgs.map(() => temp(st));
    // each moved argument keeps the line breaks before it (for the first, those between the callee and it)
    const assigned = apartArgs.map(
      (arg, j) =>
        `${temps[j]} = ${lineBreaks(j === 0 ? callee.end : apartArgs[j - 1].end, arg.start)}${ms.slice(arg.start, arg.end)}`,
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
          `${H}.call(${pick(g)}, ${t}${args}))${lineBreaks(last === undefined ? callee.end : last.end, n.end)}`,
      );
    } else if (apart)
      ms.overwrite(
        callee.start,
        (apartArgs.at(-1) as N).end,
        `${H}.call(${pick(`(${g} = ${test})`)}, ${t}${args}`,
      );
    else {
      const rest = `${n.arguments.length ? ', ' : ''}${lineBreaks(callee.end, paren + 1)}`;
      ms.overwrite(callee.start, paren + 1, `${H}.call(${pick(`(${g} = ${test})`)}, ${t}${rest}`);
    }
  }

  /** `for (o[k] of ...)` and `for ([o[k]] in ...)`: the head is an assignment target (ECMA-262 §14.7.5.7). */
  function forInOf(node: E.Node, st: State, c: Walk<State>): void {
    const n = node as E.ForInStatement;
    c(n.left, st, n.left.type === 'VariableDeclaration' ? undefined : 'Pattern');
    c(n.right, st);
    c(n.body, st);
  }

  /** Parameter patterns: their default values and computed keys get a scope of their own (a wrapping arrow). */
  function paramDefaults(p: N, st: State, c: Walk<State>): void {
    const wrapped = (e: E.Node) => inScope('wrap', e, st.strict, (s) => c(e, s));
    switch (p.type) {
      case 'AssignmentPattern':
        paramDefaults(p.left as N, st, c);
        wrapped(p.right);
        break;
      case 'ArrayPattern':
        for (const e of p.elements) if (e) paramDefaults(e as N, st, c);
        break;
      case 'ObjectPattern':
        for (const prop of p.properties) {
          if (prop.type === 'RestElement') paramDefaults(prop.argument as N, st, c);
          else {
            if (prop.computed) wrapped(prop.key);
            paramDefaults(prop.value as N, st, c);
          }
        }
        break;
      case 'RestElement':
        paramDefaults(p.argument as N, st, c);
        break;
    }
  }

  const top: Scope = { temps: 0, kind: 'program', node: program };
  const strict = options.module || hasUseStrict(program.body);
  walk(program, { scope: top, strict, loop: null, fn: program }, visitors);

  if (locs.length === 0) return { code: source, sites: 0, warnings };
  const temps = Array.from({ length: top.temps }, (_, j) => `${RESERVED_PREFIX}${j + 1}`);
  for (const i of cached) temps.push(`${SITE_CACHE}${i}`);
  const decl = temps.length ? `var ${temps.join(', ')};` : '';
  ms.append(
    `\n;${decl}function ${SITE_FN}() { return [${JSON.stringify(options.file)}, [${locs.join(',')}]]; }\n`,
  );
  return { code: ms.toString(), sites: locs.length / 2, warnings };
}

type Walk<S> = (node: E.Node, st: S, override?: string) => void;
type Visitor<S> = (node: E.Node, st: S, c: Walk<S>) => void;
// biome-ignore lint/suspicious/noExplicitAny: acorn-walk's base visitors are generic in their state
const baseV = base as unknown as Record<string, Visitor<any>>;
const walk = recursive as unknown as <S>(node: E.Node, st: S, visitors: Record<string, Visitor<S>>) => void;

/** True when a directive prologue (ECMA-262 §11.2.1) of `body` contains `'use strict'`. */
function hasUseStrict(body: ReadonlyArray<E.Node>): boolean {
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
function localNames(program: E.Program): Set<string> {
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
