/**
 * **Range checks of `for…of` loops over TypedArrays** (issue 24 §1): `for (const x of a) BODY` (or `let x`; `a` a
 * variable) iterates a TypedArray whose iteration is the built-in one as the indexed loop
 *
 *     for (let k = 0; k < a.length; k++) { const x = a[k]; BODY }
 *
 * does (ECMA-262 §14.7.5.6 ForIn/OfBodyEvaluation; §23.1.5.2.1 %ArrayIteratorPrototype%.next reads element k while
 * k is below the length read at that step, §23.2.3.37). That loop ({@link indexedLoop}) is planned by `./ranges.ts`
 * as any `for` loop, with all its refusals (a body that calls, assigns the view, exits early...: the loop keeps its
 * per-element checks); a plan of a covered loop is refused too (a `break` at element k: the elements after it are
 * never checked). When one qualifies, the loop is preceded, on its first line, by its guard and by the indexed copy:
 *
 *     R = false; if (READY && !(UNSHARED) && __goldilocks.typedIteration(a)) R = GUARD;
 *     if (R) for (...) { const x = a[k]; BODY' } else for (const x of (R = READY && UNSHARED, a)) BODY'
 *
 * `READY` the range guard's test that the bindings it reads are out of their temporal dead zone (`./ranges.ts`
 * `readyTest`), `UNSHARED` the loop guards' `!__goldilocks.shared(V) && ...` of its views (`a` and the body's): when
 * no view is shared, the for…of runs as written, its body's accesses plain, as before, without the cost of the
 * iteration test
 * on entry (a loop over a short view entered often). `GUARD` the range guard of the indexed loop (`./ranges.ts`
 * `rangeGuard`: with a view shared, or `typed`, its typeof tests run before `span`, so the copy's body runs no code
 * and the iteration cannot end differently), evaluated only when `Hooks.typedIteration(a)` finds the built-in iteration:
 * else the range check would record the reads of elements the loop may not read. `BODY'` is the rewritten body, each
 * element access `(R ? ORIGINAL : GUARDED)`: the copy runs them plain; the for…of as written, taken when `R` is
 * false, checks its elements one by one (the runtime's iterator), and its body's accesses when a view is shared. When
 * code the iteration runs could replace a view (the plan's `typed`, `./ranges.ts`), `UNSHARED` is not tested first and
 * the for…of sets `R = false`. The copy's read `a[k]` has a site of its own at `a`.
 */

import type * as E from 'estree';
import { readyTest, unsharedTest } from './range-guard.js';
import type { RangePlan } from './ranges.js';
import { COPY_INDEX, HOOKS_GLOBAL, type Loop, type Rewriter } from './rewriter.js';
import { newSite } from './sites.js';
import type { N } from './syntax.js';
import { LINE, oneLine } from './text.js';

/** The indexed copy's loop variable. */
const K = COPY_INDEX;

/**
 * The indexed loop `for (let K = 0; K < a.length; K++) { const x = a[K]; ...BODY }` that `node` iterates as when
 * `a` has the built-in iteration, over `node`'s own nodes (`a`, `x`, the body's statements: the scope analysis
 * knows them) and at its offsets (the read `a[K]` at `a`'s, the binding at the head's); `node` is one that
 * {@link qualifies}.
 */
function indexedLoop(node: E.ForOfStatement & N): E.ForStatement & N {
  const { left, right } = node;
  const head = left as E.VariableDeclaration & N;
  const at = { start: head.start, end: head.end };
  const k = (): E.Identifier => ({ type: 'Identifier', name: K, ...at }) as E.Identifier;
  const read = {
    type: 'MemberExpression',
    object: right,
    property: k(),
    computed: true,
    optional: false,
    start: (right as N).start,
    end: (right as N).end,
  } as E.MemberExpression;
  const binding = {
    type: 'VariableDeclaration',
    kind: head.kind,
    declarations: [{ type: 'VariableDeclarator', id: head.declarations[0].id, init: read, ...at }],
    ...at,
  } as E.VariableDeclaration;
  const length = { type: 'Identifier', name: 'length', ...at } as E.Identifier;
  return {
    type: 'ForStatement',
    init: {
      type: 'VariableDeclaration',
      kind: 'let',
      declarations: [{ type: 'VariableDeclarator', id: k(), init: { type: 'Literal', value: 0, raw: '0' } }],
    },
    test: {
      type: 'BinaryExpression',
      operator: '<',
      left: k(),
      right: { type: 'MemberExpression', object: right, property: length, computed: false, optional: false },
    },
    update: { type: 'UpdateExpression', operator: '++', prefix: false, argument: k() },
    body: {
      type: 'BlockStatement',
      body: [binding, ...(node.body.type === 'BlockStatement' ? node.body.body : [node.body])],
    },
    start: node.start,
    end: node.end,
    loc: node.loc,
  } as E.ForStatement & N;
}

/**
 * Is `node` `for (const x of a)` or `for (let x of a)`, `x` and `a` identifiers, its body one that can be written on
 * one line (`./text.ts` `oneLine`: no comment, no line terminator inside a token)?
 */
function qualifies(rw: Rewriter, node: E.ForOfStatement & N): boolean {
  const head = node.left;
  if (
    node.await ||
    head.type !== 'VariableDeclaration' ||
    head.kind === 'var' ||
    head.declarations.length !== 1 ||
    head.declarations[0].id.type !== 'Identifier' ||
    node.right.type !== 'Identifier'
  )
    return false;
  return oneLine(rw, node.body as N) !== null;
}

/**
 * The range plan of the for…of loop `loop` (see the file header): `plan`'s (`./ranges.ts` `rangePlan`) for its
 * {@link indexedLoop}, when that is not a covered loop's; else null.
 */
export function forOfPlan(
  rw: Rewriter,
  loop: Loop,
  plan: (rw: Rewriter, loop: Loop) => RangePlan | null,
): RangePlan | null {
  const node = loop.node as unknown as E.ForOfStatement & N;
  if (!qualifies(rw, node)) return null;
  const p = plan(rw, { ...loop, node: indexedLoop(node) });
  return p === null || p.covered ? null : p;
}

/** The site of the indexed copy's read `a[k]` of the for…of loop `node` (planned at `a`: {@link indexedLoop}). */
export const forOfSite = (rw: Rewriter, node: E.ForOfStatement & N): number => newSite(rw, node.right as N);

/**
 * Ends each expression statement and declaration of `s` (the walk's statements of a planned body: blocks, `if`s,
 * inner `for` loops) without a semicolon of its own with one, so that the body reads the same on one line (no
 * automatic semicolon insertion, ECMA-262 §12.10, at a line terminator that is now a space).
 */
function terminate(rw: Rewriter, s: E.Statement): void {
  const n = s as E.Statement & N;
  switch (s.type) {
    case 'ExpressionStatement':
    case 'VariableDeclaration':
      if (rw.source[n.end - 1] !== ';') rw.ms.appendLeft(n.end, ';');
      return;
    case 'BlockStatement':
      for (const x of s.body) terminate(rw, x);
      return;
    case 'IfStatement':
      terminate(rw, s.consequent);
      if (s.alternate) terminate(rw, s.alternate);
      return;
    case 'ForStatement':
      terminate(rw, s.body);
      return;
  }
}

/**
 * What precedes the for…of loop `node` of range plan `plan`, after its body was rewritten (see the file header): its
 * guards — `members` (the member loop guards of its per-access paths, `./loops.ts`) and `R = false`, then `guard`
 * (the range guard, `R = ...`) when a view is shared (or the plan is `typed`) and `Hooks.typedIteration(a)` —
 * and what follows them, the indexed copy when `R`, then `else`; each on one line. The for…of's iterable becomes
 * `(R = READY && UNSHARED, a)` (see the file header).
 */
export function forOfGuards(
  rw: Rewriter,
  node: E.ForOfStatement & N,
  plan: RangePlan,
  guard: string,
  members: string[],
): [string, string] {
  const body = node.body as E.Statement & N;
  terminate(rw, body);
  const text = rw.ms.slice(body.start, body.end).replace(LINE, ' ');
  const head = node.left as E.VariableDeclaration;
  const x = (head.declarations[0].id as E.Identifier).name;
  const a = (node.right as E.Identifier).name;
  const copy = `for (let ${K} = 0; ${K} < ${a}.length; ${K}++) { ${head.kind} ${x} = ${a}[${K}]; ${text}; }`;
  // no view shared: the for…of as written, its accesses plain, as the loop guards had them (no iteration test to pay);
  // unless code its iteration runs could replace a view: then the copy, or the for…of with its per-access checks
  // (each view read only out of its temporal dead zone: `./ranges.ts` `readyTest`)
  const ready = readyTest(rw, plan);
  const views = unsharedTest(plan);
  const right = node.right as N;
  const unshared = plan.typed ? 'false' : ready === '' ? views : `${ready} && ${views}`;
  rw.ms.prependRight(right.start, `(${plan.temp} = ${unshared}, `);
  rw.ms.appendLeft(right.end, ')');
  const start = [`${plan.temp} = false`, ...members].join(', ');
  const tests = [ready, plan.typed ? '' : `!(${views})`, `${HOOKS_GLOBAL}.typedIteration(${a})`];
  return [
    `${start}; if (${tests.filter((t) => t !== '').join(' && ')}) ${guard}`,
    `if (${plan.temp}) ${copy} else `,
  ];
}
