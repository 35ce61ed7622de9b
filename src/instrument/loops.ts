/**
 * **Loop guards**: in a loop, an access (with everything it contains, on one line) whose objects are variables that
 * cannot change during the loop (parameters, or locals declared before it and assigned only by their declaration,
 * per eslint-scope's analysis of the enclosing function: `./scope.ts`) becomes `(G ? ORIGINAL : GUARDED)`, where `G`
 * tests one local per variable, set once as the loop is entered to whether that variable is *not* a view over
 * shared memory: `__gl$5 = !__goldilocks.shared(a); for (...) ...` (loops that are statements of a statement list;
 * the guard is a statement of its own before the loop). Memory that is not shared then costs a test of a local per
 * access; a shared view takes the guarded path at every access. **Member loop guards**: an access in such a loop
 * whose object is `R.p` (`R` being `this` or an invariant variable) first compares the value it reads of `R.p` with
 * a local set to `__goldilocks.peek(R, "p")` (that value, read without running code, when it is not a shared view)
 * on entry to the outermost loop around it that is not short: `(X === B ? X[K] : GUARDED)`, see `memberGuardOf`.
 */

import type { Variable } from 'eslint-scope';
import type * as E from 'estree';
import { forOfGuards, forOfPlan, forOfSite } from './for-of.js';
import { opaqueGuard, rangeGuard } from './range-guard.js';
import { type RangePlan, rangePlan } from './ranges.js';
import { HOOKS_GLOBAL, type Loop, type Rewriter, type State } from './rewriter.js';
import { invariantVariable } from './scope.js';
import { type N, unparen, type Visitor } from './syntax.js';
import { tempIn } from './temporaries.js';
import { oneLine } from './text.js';

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
export function memberGuardOf(st: State, member: E.MemberExpression): string | null {
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
        st.rw.derivedConstructors.has(fn)
      : root.type !== 'Identifier'
  )
    return null;
  let loop: Loop | null = null;
  let base: Variable | null = null;
  for (let l: Loop | null = st.loop; l !== null; l = l.outer) {
    let v: Variable | null = null;
    if (root.type === 'Identifier') {
      v = invariantVariable(st.rw, l, root); // invariant in a loop, then in every loop inside it
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
    m = { base, p, temp: tempIn(loop.scope) };
    loop.members.push(m);
  }
  return m.temp;
}

/**
 * The guard temporary of `id` (an element access's object) in `loop`, allocating it; null when `id` does not
 * name a variable invariant in the loop.
 */
function guardOf(rw: Rewriter, loop: Loop, id: E.Identifier & N): string | null {
  const v = invariantVariable(rw, loop, id);
  if (v === null) return null;
  let g = loop.guards.get(v);
  if (g === undefined) {
    g = tempIn(loop.scope);
    loop.guards.set(v, g);
  }
  return g;
}

/**
 * Loop guards: the rewritten element access `node` (its own site and the sites of its subtree, `notes` from
 * `before` on) becomes `(G ? ORIGINAL : REWRITTEN)` when it is on one line, every site in it is an element
 * access of the same loop, and each access's object is a variable invariant in that loop; `G` tests the guard
 * temporaries of those variables, which the loop sets once on entry (`inLoop`) to whether each is *not* a view
 * over shared memory. While none is, the loop runs the original accesses: one test of a local per access, which
 * the JIT keeps out of the way of the access itself (the per-access guard's cache miss on first use is what
 * keeps V8 from combining the checks of several accesses to one array). A shared view's accesses take the
 * rewritten path as before. The copy is on one line ({@link oneLine}): it must not move the lines after it.
 */
export function loopGuarded(node: N, before: number, st: State): void {
  const { rw, loop } = st;
  if (loop === null || before === rw.notes.length) return;
  const text = oneLine(rw, node);
  if (text === null) return;
  const guards: string[] = [];
  for (let j = before; j < rw.notes.length; j++) {
    const note = rw.notes[j];
    // in a range-checked loop, any object: its guard covers every element access of the loop (`X[e][j]`: the row
    // `X[e]` is read plain from an array its guard found not to be a view)
    if (note.loop !== loop) return;
    const g =
      loop.range !== null
        ? rangeBit(rw, loop.range, j)
        : note.object === null
          ? null
          : guardOf(rw, loop, note.object);
    if (g === null) return;
    if (!guards.includes(g)) guards.push(g);
  }
  rw.ms.overwrite(
    node.start,
    node.end,
    `(${guards.join(' && ')} ? ${text} : ${rw.ms.slice(node.start, node.end)})`,
  );
}

/**
 * The guard of site `i` in a range-checked loop: the loop's guard, or in a covered loop its bit of the site's
 * access (null when the site is none of its planned accesses).
 */
function rangeBit(rw: Rewriter, range: NonNullable<Loop['range']>, i: number): string | null {
  if (!range.covered) return range.temp;
  const k = range.accesses.findIndex(
    (a) => a.member.start === rw.ranges[2 * i] && a.member.end === rw.ranges[2 * i + 1],
  );
  return k < 0 ? null : `(${range.temp} & ${2 ** k})`;
}

/** The site index of each access `plan` planned, among the sites from `before` on; null for one without a site. */
function sitesOf(rw: Rewriter, plan: RangePlan, before: number): Array<number | null> {
  return plan.accesses.map((a) => {
    for (let i = before; i < rw.ranges.length / 2; i++)
      if (rw.ranges[2 * i] === a.member.start && rw.ranges[2 * i + 1] === a.member.end) return i;
    return null;
  });
}

/**
 * A loop visitor: the loop's sites may use its guards, which are set by a statement before the loop (see
 * `loopGuarded`). A loop that is not a statement of a list but the body of another statement (`for (...) for (...)`,
 * `if (c) for (...)`, without braces) is put in a block with that statement: `{ GUARDS; for (...) ... }` (the same
 * statement: the block declares nothing, the loop's own bindings are its own; the same lines).
 */
export const inLoop =
  (visit: Visitor<State>): Visitor<State> =>
  (node, st, c) => {
    const n = node as N;
    const statement = st.rw.outerLabel.get(n) ?? n;
    if (st.fn === null) {
      visit(node, { ...st, loop: null }, c);
      return;
    }
    const braced = !st.rw.listed.has(statement);
    // `after`: what follows the guards on their line (a for…of loop's indexed copy, `./for-of.ts`)
    const place = (guards: string, after = ''): void => {
      st.rw.ms.prependLeft(loop.start, braced ? `{ ${guards}; ${after}` : `${guards}; ${after}`);
      if (braced) st.rw.ms.appendLeft(statement.end, ' }');
    };
    const loop: Loop = {
      node: n,
      fn: st.fn,
      start: statement.start,
      scope: st.scope,
      outer: st.loop,
      guards: new Map(),
      members: [],
      range: null,
    };
    if (st.loop?.range?.nested.has(n)) {
      // an inner loop the range check of its outer loop unrolled (`./ranges.ts`): its accesses take that guard
      loop.range = st.loop.range;
      visit(node, { ...st, loop }, c);
      return;
    }
    const forOf = n.type === 'ForOfStatement' ? (n as E.ForOfStatement & N) : null;
    const ofPlan = forOf && forOfPlan(st.rw, loop, rangePlan);
    const plan = forOf ? ofPlan : rangePlan(st.rw, loop);
    loop.range = plan;
    const before = st.rw.locs.length / 2;
    visit(node, { ...st, loop }, c);
    const members = loop.members.map(
      (m) => `${m.temp} = ${HOOKS_GLOBAL}.peek(${m.base?.name ?? 'this'}, ${JSON.stringify(m.p)})`,
    );
    if (forOf && ofPlan) {
      forOfSite(st.rw, forOf);
      const guard = rangeGuard(st.rw, ofPlan, sitesOf(st.rw, ofPlan, before));
      place(...forOfGuards(st.rw, forOf, ofPlan, guard, members));
      return;
    }
    if (plan !== null) {
      // with the member loop guards of its accesses' per-access paths (a member view `this.g[k]`, `./member-views.ts`,
      // when the range check fails), or of an unrolled inner loop's
      place([rangeGuard(st.rw, plan, sitesOf(st.rw, plan, before)), ...members].join(', '));
      // after the body's own edits: an overwrite drops what was appended at its end
      for (const e of plan.opaque) st.rw.ms.appendLeft(e.end, `, ${opaqueGuard(plan)}`);
      return;
    }
    if (loop.guards.size === 0 && members.length === 0) return;
    const set = [
      ...[...loop.guards].map(([v, g]) => `${g} = !${HOOKS_GLOBAL}.shared(${v.name})`),
      ...members,
    ];
    // a statement of its own (in a block with the loop when braced): nothing is inserted where the next statement
    // starts
    place(set.join(', '));
  };
