/**
 * **Range checks** (coalesced checks of a loop's element accesses, after BigFoot: Rhodes, Flanagan, Freund, PLDI
 * 2017, §4, one check for a loop over `a[lo..hi)`): a `for` loop whose set of accessed elements is known exactly
 * when it is entered gets, instead of the per-variable loop guards of `./loops.ts`, one guard `R` for all its
 * accesses, set before the loop to
 *
 *     R = !__goldilocks.shared(V1) && ... || typeof x === "number" && ... && [pure and fixedLength tests] &&
 *         __goldilocks.span(__gl$m, LO, HI, STEP, INCL, [ints...], [V, group, FIRST, STRIDE, KIND, SITE, ...])
 *
 * (`Hooks.span`, `../hooks/contract.ts`): true when no view is over shared memory (as the loop guards), or when the
 * runtime checked and recorded every access the loop will make, as the per-access checks would have; then each
 * access runs plain (`(R ? ORIGINAL : GUARDED)`). False sends every access of the loop to its per-access check.
 *
 * The loop (`for (let j = LO; j < HI; j++)`, `<=`, `++j`, `j += c` with `c` a positive integer literal; or going
 * down, `j > HI` or `j >= HI` with `j--`, `--j` or `j -= c`: the guard passes `HI, LO` as the bounds of the iterations
 * and each access's stride negated; a `let` header may declare invariants after `j`, `let j = 0, n = a.length`, each
 * initializer in the grammar of `HI` reading only the invariants before it: the bounds read them as their initializers,
 * which the guard evaluates as the header then does, and the body may not read them; `j !== HI` or `!=`, going the way of
 * its update, `Hooks.span`'s `inclusive` 2; the variable declared before the loop, `let j; for (j = LO; ...)`, or `for
 * (; j < HI; j++)` from its value on entry, a local of the function the loop may assign without an exception,
 * `./scope.ts` `loopLocal`; a `while (j < HI) { ...; j++; }` whose last statement is the update, planned as that `for`
 * loop, `./range-grammar.ts` `whileHeader`, never as a covered loop: its `continue` would skip the update) qualifies
 * when its body is straight-line code that can neither exit early nor run other code: expression statements, `let`
 * / `const` / `var` declarations at the top of the body, `if`s whose branches access no element (but reads that
 * `./range-body.ts` `readBefore` finds redundant); operators on numbers
 * (no `in`, `instanceof`, `delete`, `new`, property reads other than elements, string or BigInt literals; no
 * calls but `M.f(...)` with `f` one of `PURE_METHODS` (`Math`'s and `Number.isNaN`'s kin), `../hooks/names.ts`, whose value the guard tests to be that
 * built-in, `__goldilocks.pure(() => M, "f")`, the body not assigning `M`: on numbers it runs no other code; and
 * `f(...)` with `f` a pure function of the module, `./callees.ts`, known when the module is rewritten);
 * element accesses `V[a*j + b]` only where they always run (not under `?:`, `&&`, `||`, `??` or in an `if`'s
 * branch; an `if`'s test always runs), but for a read of an element that an earlier access of the iteration always
 * read, no write of its view between (`if (a[j] > m) m = a[j]`: redundant, RedCard, `./range-body.ts` `readBefore`),
 * `a` an integer literal, or one times a part without `j` (a column `b[k * n + j]`: the guard computes the stride
 * `n`), `b` (and `LO`) without `j` in the grammar of {@link affine} (bitwise operators and `% N` allowed
 * there), `V` and the variables of `b`, `LO` and `HI` locals of the function declared before the loop
 * (`./scope.ts` `loopLocal`) that the body does not assign (as it runs no other code, they keep their value
 * throughout the loop: an outer loop's variable qualifies), the module's top-level bindings (`./scope.ts`
 * `moduleBinding`, whose declarations the guard first tests to have run, `./range-guard.ts` `declaredTest`), the bindings of an
 * enclosing function (`./scope.ts` `capturedBinding`: `rows.forEach((row) => ...)` bounded by the function's `n`, a
 * `function sweep(c)` nested in `main()` over its `grid`; the `let`s and `const`s tested first with
 * `Hooks.declared`), or the module's
 * number constants, which the guard first tests to be initialized (`./range-guard.ts` `initializedTest`); `V` may be a row `X[e]`
 * of an array of views ({@link Body.rowElement}: `g[i - 1][j]`), or a member view `O.p` (`./member-views.ts`:
 * `this.grid[k]`, `O` `this` or a variable as `X`), which the guard reads with `Hooks.row` first; the bounds, indices
 * and body may read member numbers `O.p` (`./member-numbers.ts`: `j < this.n - 1`, `this.w * x`), which the guard
 * reads with `Hooks.row` into temporaries, tested to be numbers; or `V[c]`, `V[c++]`, `V[++c]` of a counter `c` (not in a
 * covered loop; {@link countersOf}: increments that always run, `P` per iteration, the only assignments of `c`; its
 * value at an index is `c` at entry + the increments before it in the iteration + `P·t`, `t` the iterations before:
 * stride `P`; a target's index is evaluated before the right-hand side, ECMA-262 §13.15.2); an index may name an
 * alias, a `const` of the body whose initializer is affine in `j` (`const i = 8 * j`), which stands for that
 * initializer (`affine`), every other variable read a local of the function declared before the loop (accumulators
 * may be assigned, but not a `const`: the assignment would throw); a `let c = N` of the body (`N` an integer
 * literal) assigned only by increments that always run is a counter whose indices are the same in every iteration.
 * An inner `for` loop of number-literal bounds and at most `MAX_UNROLLED` (`./range-body.ts`) iterations at the top of the body is
 * unrolled into the body ({@link Body.inner}): its accesses are the outer loop's, one per inner iteration, and take
 * its guard (`./loops.ts` `inLoop`). `LO` and `HI` may contain `V.length` (`V` invariant, or a row the loop accesses,
 * `this.g.length`, `g[i].length`: its temporary's, {@link rowLengths}; a loop going down starts at
 * `a.length - 1`): the guard tests `__goldilocks.fixedLength(V)` before it reads them (a TypedArray over a SharedArrayBuffer that cannot grow, its `length` the built-in getter: the same
 * number at every test of the loop, and no code run by the guard's extra read). The typeof tests make every operator one on numbers (the runtime refuses BigInt arrays), so nothing
 * in the body throws or runs code; `ints` (the variables of `LO` and of the indices) must be safe integers for
 * FIRST (the index at `j = LO`) and STRIDE (`a * c`) to give exactly the indices the loop computes.
 *
 * Per view variable, either it is only written, or each write `V[x] = ...` follows (in evaluation order, in the same
 * iteration) a read of `V[x]` with the same index expression (a compound assignment or update is one): then the
 * first access of each element in the loop is of the kind the runtime records first (reads, then writes), so the
 * shadow state it leaves is the one the per-access checks leave. The runtime refuses two view variables over
 * overlapping bytes (`../live/spans.ts`).
 *
 * **Parity skips** (`./parity.ts`): a body whose first statement is `if ((A) % 2 OP K) continue;` or `& 1` (a
 * red-black sweep choosing its colour by a condition) is planned over the rest of the body as a loop from the first
 * iteration that runs it, with twice the step, when the guard finds that the test alternates at the loop's entry
 * (`./range-guard.ts` `skipTest`); else the loop is a covered one, as before.
 *
 * **Covered loops** (docs/RUNTIME.md "Covered loops"): a loop refused only because its body may `continue` or
 * `break` (unlabeled), accesses elements only in some iterations (under `if`, `?:`, `&&`, `||`, `??`), or writes an
 * element before reading it, is planned with the same rules otherwise (at most {@link MAX_COVERED} accesses). Its
 * guard is a number from `__goldilocks.covered(...)` (the arguments of `span`), `-1` when no view is shared, and
 * each access runs plain when its bit is set (`(R & 2^k) ? ORIGINAL : GUARDED`): the runtime sets it when every
 * element the access may touch was already checked for its kind in the thread's epoch, and records nothing, so an
 * access that does not run changes nothing.
 */

import type * as E from 'estree';
import { pureCallee } from './callees.js';
import { type MemberNumber, MemberNumbers } from './member-numbers.js';
import { memberView, objectName, thisReadable } from './member-views.js';
import { type ParitySkip, paritySkip } from './parity.js';
import { Body, type Planned, rowViewKey } from './range-body.js';
import {
  type Aliases,
  affine,
  header,
  identifiers,
  J,
  literal,
  literalIterations,
  Refused,
  refuse,
  whileHeader,
} from './range-grammar.js';
import type { Loop, Rewriter } from './rewriter.js';
import { capturedBinding, closureWritten, loopLocal, moduleBinding, moduleConstant } from './scope.js';
import { type N, unparen } from './syntax.js';
import { tempIn } from './temporaries.js';

/** What {@link rangePlan} found for a loop. */
export interface RangePlan {
  /** The guard temporary of every access of the loop. */
  temp: string;
  j: string;
  lo: E.Expression;
  hi: E.Expression;
  step: number;
  inclusive: boolean;
  /** `j !== HI` (or `!=`): the loop ends when it reaches `HI` exactly (`Hooks.span`'s `inclusive` 2). */
  until: boolean;
  /** `j > HI` or `j >= HI` with `j--` or `j -= c` (or `j !== HI` with them): the loop goes down from `LO`. */
  down: boolean;
  accesses: Planned[];
  /** Variables the typeof tests cover, and those that must be safe integers. */
  numbers: Set<string>;
  /** The calls `object.name(...)` of the body, each tested with `Hooks.pure` on entry, without repeats. */
  calls: Array<{ object: string; name: string }>;
  ints: Set<string>;
  views: string[];
  /** The variables `V` of the bounds `V.length` in `HI`, each tested with `Hooks.fixedLength` on entry. */
  lengths: string[];
  /** The counters of the indices (see the file header): name, increments per iteration. */
  counters: Map<string, number>;
  /** The aliases the indices may name (see the file header). */
  aliases: Aliases;
  /** The initializers of the module constants the body reads (`./scope.ts` `moduleConstant`). */
  constants: Array<E.Expression & N>;
  /**
   * The declarations of the module's top-level bindings the loop reads as views, bounds or numbers (`./scope.ts`
   * `moduleBinding`), which its guard tests to be initialized before it reads any of them.
   */
  bindings: Array<E.Statement & N>;
  /**
   * The `let`s and `const`s of enclosing functions the loop reads (`./scope.ts` `capturedBinding`), which its guard
   * tests with `Hooks.declared` before it reads any of them: a closure may run before their declaration did.
   */
  declared: string[];
  /**
   * The rows `X[e]` of arrays of views the loop accesses (`X[e][i]`, {@link Body.rowElement}) and its member views
   * `O.p` (`O.p[i]`, `./member-views.ts`): the temporary its accesses' `view` names, `X` (or `O`: `this` or a
   * variable), and `e`'s text (or `"p"`); the guard reads each with `Hooks.row` first.
   */
  rows: Array<{ temp: string; x: string; e: string }>;
  /**
   * The member numbers `O.p` the loop reads in its bounds, indices or body (`./member-numbers.ts`): the guard reads
   * each into its temporary with `Hooks.row` and tests it to be a number, then every view to be a TypedArray before
   * `Hooks.span`.
   */
  members: MemberNumber[];
  /** The aliases of the bounds (`affine`): the member numbers' ({@link members}). */
  bounds: Aliases;
  /**
   * Whether the guard tests every view to be a TypedArray (`Hooks.typedArray`), whose element accesses run no code:
   * with rows, or when code could change a variable the loop reads (a top-level binding that is not fixed, a local a
   * closure assigns: `./scope.ts`), an element access of another object (a Proxy, a DataView) could run code that
   * replaces a row or changes such a variable, and the later iterations would access other elements than the ones
   * checked, plain.
   */
  typed: boolean;
  /**
   * A covered loop (see the file header): its body may `continue`, `break` and access elements conditionally; its
   * guard holds one bit per access (bit k: `accesses[k]` may run plain), from `Hooks.covered`, not `Hooks.span`.
   */
  covered: boolean;
  /** The inner loops of the body, unrolled into `accesses` ({@link Body.inner}): their accesses use this guard. */
  nested: Set<E.Node>;
  /** A covered loop's opaque operations (`./opaque.ts`), each an expression statement's expression. */
  opaque: Array<E.Expression & N>;
  /** With opaque operations, the temporary that keeps the count of synchronization operations; else null. */
  syncs: string | null;
  /**
   * The body's first statement when it is a parity skip (`./parity.ts`; not in a covered loop), with the temporary
   * the guard sets to the first iteration that runs the rest of the body; else null.
   */
  skip: (ParitySkip & { temp: string }) | null;
}

/** Accesses past which a loop is not a covered loop: one bit each in its guard, a 32-bit integer. */
const MAX_COVERED = 31;

/**
 * Loops whose bounds are number literals and that iterate fewer times than this are left to their per-access
 * checks: the range check's fixed cost (the guard's list, the hook, the filter scan of every view) exceeds what it
 * saves on so few accesses, most of them decided by the same-epoch fast path (crypt's 8 rounds over 52 subkeys, unless they are
 * unrolled into their outer loop's check: {@link Body.inner}).
 */
const MIN_LITERAL_ITERATIONS = 16;

/**
 * The counters of `body` (loop variable `j`), by name with their increments per iteration: variables other than `j`
 * that the body does not declare and assigns only by increments `++` that always run. An access indexed `c` by a
 * variable that is not one is an access indexed by an invariant (`affine`); one indexed `c++` or `++c` refuses.
 */
function countersOf(body: Body, j: string): Map<string, number> {
  const counters = new Map<string, number>();
  for (const [name, n] of body.bumps)
    if (!body.otherwise.has(name) && !body.declared.has(name) && name !== j) counters.set(name, n);
  for (const a of body.accesses) {
    const c = a.counter;
    if (c === undefined || counters.has(c.name)) continue;
    const init = body.literals.get(c.name);
    if (init !== undefined && !body.otherwise.has(c.name)) {
      // a counter the body declares with a literal: the same index in every iteration
      a.counter = undefined;
      a.node = literal(init + c.at);
      a.index = String(init + c.at);
      continue;
    }
    if (c.bumped) refuse();
    a.counter = undefined;
    a.index = c.name;
  }
  return counters;
}

/**
 * The key ({@link rowViewKey}) of the row `o` reads, a member view `O.p` or a row `X[e]` of an array of views (`e`
 * affine without the loop variable `j`), as the body's walk keys its accesses; else undefined.
 */
function rowKey(o: E.Node, j: string, aliases: Aliases): string | undefined {
  const m = memberView(o);
  if (m !== null) return rowViewKey(m.x, JSON.stringify(m.p));
  const x = unparen(o);
  if (x.type !== 'MemberExpression' || !x.computed || x.optional || unparen(x.object).type !== 'Identifier')
    return undefined;
  const index = affine(x.property, j, J, new Set(), undefined, aliases);
  return index.coef === 0 ? rowViewKey(unparen(x.object) as E.Identifier & N, index.text) : undefined;
}

/**
 * `e` (a bound, or an invariant's initializer) with each `R.length` of a row `R` the loop accesses (`this.g.length`,
 * `g[i].length`: `rowOf` names its temporary) read as that temporary's `length`, which the guard reads after the row
 * (a row makes the guard `typed`: its reads come first) and tests with `Hooks.fixedLength` as any `V.length` bound;
 * the other nodes as they are.
 */
function rowLengths(e: E.Expression, rowOf: (o: E.Node) => string | undefined): E.Expression {
  const x = unparen(e);
  switch (x.type) {
    case 'BinaryExpression':
      return { ...x, left: rowLengths(x.left as E.Expression, rowOf), right: rowLengths(x.right, rowOf) };
    case 'UnaryExpression':
      return { ...x, argument: rowLengths(x.argument, rowOf) };
    case 'MemberExpression': {
      if (x.computed || x.optional || x.property.type !== 'Identifier' || x.property.name !== 'length')
        return e;
      const temp = rowOf(x.object);
      return temp === undefined ? e : { ...x, object: { type: 'Identifier', name: temp } };
    }
    default:
      return e;
  }
}

/**
 * The range plan of `loop` when it qualifies (see the file header), its guard temporary allocated; else null.
 * Called before the loop's body is rewritten.
 */
export function rangePlan(rw: Rewriter, loop: Loop): RangePlan | null {
  if (loop.node.type === 'WhileStatement') return planned(rw, loop, false); // a covered loop's `continue`: no update
  if (loop.node.type !== 'ForStatement') return null;
  return planned(rw, loop, false) ?? planned(rw, loop, true);
}

/**
 * {@link planOf}, the temporaries it allocated given back when it finds no plan: nothing is written while a loop is
 * planned, so none of them is named in the output, which would otherwise declare them unused.
 */
function planned(rw: Rewriter, loop: Loop, loose: boolean): RangePlan | null {
  const temps = loop.scope.temps;
  const plan = planOf(rw, loop, loose);
  if (plan === null) loop.scope.temps = temps;
  return plan;
}

/**
 * The range plan of `loop` (a `for` loop, or a `while` loop as the `for` loop of `./range-grammar.ts` `whileHeader`), a
 * covered loop's when `loose`; else null.
 */
function planOf(rw: Rewriter, loop: Loop, loose: boolean): RangePlan | null {
  try {
    const loopNode = loop.node as unknown as E.ForStatement | E.WhileStatement;
    const w = loopNode.type === 'WhileStatement' ? whileHeader(loopNode) : null;
    const node = w === null ? (loopNode as E.ForStatement) : { ...loopNode, body: w.body };
    const h = w?.h ?? header(node as E.ForStatement, true);
    const literal = literalIterations(h);
    if (literal !== undefined && literal < MIN_LITERAL_ITERATIONS) return null;
    const members = new MemberNumbers(() => tempIn(loop.scope));
    const body = new Body(
      h.j,
      loose,
      (callee) => pureCallee(rw, callee),
      (id) => moduleConstant(rw, id),
      members,
    );
    // (not in a `while` loop: its `continue` would skip the update)
    const skip =
      w === null && !loose && !h.down && node.body.type === 'BlockStatement'
        ? paritySkip(node.body.body[0])
        : null;
    if (skip) body.expression(skip.test, true); // its variables' uses; no element access
    if (node.body.type === 'BlockStatement')
      for (const x of skip ? node.body.body.slice(1) : node.body.body) body.statement(x, true);
    else body.statement(node.body, false);
    if (body.accesses.length === 0 || (loose && body.accesses.length > MAX_COVERED)) return null;
    // rows of arrays of views: a temporary each; the array neither a view of the loop nor assigned in it, nor changed
    // by code an opaque operation runs; the row's index variables tested as the indices' are
    const rows: RangePlan['rows'] = [];
    const rowIds = new Map<string, E.Identifier>();
    for (const a of body.accesses) {
      if (a.row === undefined) continue;
      if (body.opaque.length > 0) refuse();
      let r = rows.find((x) => `${x.x}[${x.e}]` === a.view);
      if (r === undefined) {
        r = { temp: tempIn(loop.scope), x: objectName(a.row.x), e: a.row.text };
        rows.push(r);
      }
      a.view = r.temp;
      if (a.row.e !== null) identifiers(a.row.e, rowIds, a.aliases ?? body.aliases);
    }
    const ints = new Set<string>();
    const his = new Set<string>();
    const lengths = new Map<string, E.Identifier>();
    // `V.length` in either bound (a loop going down starts at `a.length - 1`): the guard tests `fixedLength(V)` first;
    // member numbers `O.p` stand for their temporaries; the header's invariants (`let j = 0, n = a.length`) for their
    // initializers, which the guard evaluates as the header then does (only in the bounds: the body may not read them)
    // `R.length` of a row the loop accesses (`this.g.length`, `g[i].length`) as its temporary's
    const rowOf = (o: E.Node): string | undefined => {
      const key = rowKey(o, h.j, body.aliases);
      return key === undefined ? undefined : rows.find((r) => `${r.x}[${r.e}]` === key)?.temp;
    };
    const rowTemps = new Set(rows.map((r) => r.temp));
    const lo = rowLengths(h.lo, rowOf);
    const hi = rowLengths(h.hi, rowOf);
    const invariants = new Map([...h.invariants].map(([name, e]) => [name, rowLengths(e, rowOf)]));
    for (const e of [lo, hi, ...invariants.values()]) members.within(e, true);
    // (a body that reads an invariant is refused as one reading any variable not declared before the loop: `local`)
    const bounds: Aliases = new Map([...members.aliases, ...invariants]);
    const bound = (e: E.Node, vars: Set<string>) => affine(e, h.j, J, vars, lengths, bounds);
    // a loop entered with its variable's value (`./range-grammar.ts` `header`'s `entry`): that value a safe integer
    if (h.entry) ints.add(h.j);
    else if (bound(lo, ints).coef !== 0) refuse();
    if (bound(hi, his).coef !== 0) refuse();
    // a parity skip alternates when A's coefficient (a literal) times the step is odd, and K is the same in every
    // iteration
    if (skip) {
      const parity = affine(skip.a, h.j, J, ints, undefined, body.aliases);
      if (parity.by !== undefined || (parity.coef * h.step) % 2 === 0) refuse();
      if (affine(skip.k, h.j, J, ints, undefined, body.aliases).coef !== 0) refuse();
    }
    const views = [...new Set(body.accesses.map((a) => a.view))];
    for (const r of rows) if (views.includes(r.x)) refuse();
    // a view or an array of rows read as an operand (`a[j] * a`) is not tested to be a number: its conversion could
    // run code (a `valueOf`, a patched `join`) that replaces a row or a member view, or assigns a bound
    for (const name of body.operands) if (views.includes(name) || rows.some((r) => r.x === name)) refuse();
    // a view's members are not read by `Hooks.row` (a view's `length`, in the body, is not a member number)
    for (const m of members.list) if (m.x.type === 'Identifier' && views.includes(m.x.name)) refuse();
    const counters = countersOf(body, h.j);
    for (const a of body.accesses)
      if (a.counter === undefined) affine(a.node, h.j, J, ints, undefined, a.aliases ?? body.aliases);
    // the objects the guard reads: of the accesses (a view, a row's array, a member view's `O` or `this`) and of the
    // member numbers; and by name those that are variables, with the views whose `length` a bound reads
    const objects = [
      ...body.accesses.map((a) => a.row?.x ?? a.member.object),
      ...members.list.map((m) => m.x),
    ];
    const objectNames = new Set([
      ...views,
      ...[...lengths.keys()].filter((v) => !rowTemps.has(v)),
      ...rows.map((r) => r.x),
      ...objects.filter((o): o is E.Identifier => o.type === 'Identifier').map((o) => o.name),
    ]);
    const fixed = new Set([h.j, ...ints, ...his, ...objectNames]);
    const ids = new Map<string, E.Identifier>();
    identifiers(lo, ids);
    identifiers(hi, ids, invariants);
    if (skip) for (const e of [skip.a, skip.k]) identifiers(e, ids, body.aliases);
    for (const a of body.accesses)
      if (a.counter === undefined) identifiers(a.node, ids, a.aliases ?? body.aliases);
    for (const [name, id] of rowIds) ids.set(name, id);
    for (const name of body.declared) if (fixed.has(name)) refuse();
    for (const name of body.assigned) if (fixed.has(name) || body.constants.has(name)) refuse();
    // a called function's object is read once, by the guard: the body may not change it
    for (const { object } of body.calls)
      if (object === h.j || body.declared.has(object) || body.assigned.has(object) || views.includes(object))
        refuse();
    for (const u of body.uses) {
      const at = body.declaredAt.get(u.name);
      if (at !== undefined && u.pos < at) refuse();
      // a name an inner loop declares, used outside it: another variable, not tested
      if (body.scoped.some((x) => x.name === u.name && (u.pos < x.start || u.pos >= x.end))) refuse();
    }
    // views, index and bound variables: locals declared before the loop, or the module's top-level bindings, that
    // the body does not assign (`fixed`, above), as the body runs no other code: the same value throughout the loop
    // (an outer loop's variable too); other free variables: the same, which the body may assign unless `const`s
    const bindings = new Map<string, { statement: E.Statement & N; fixed: boolean }>();
    // and the bindings of enclosing functions (`./scope.ts` `capturedBinding`), the same way
    const captured = new Map<string, { tdz: boolean; fixed: boolean }>();
    const local = (id: E.Identifier, assigned = false): void => {
      if (loopLocal(rw, loop, id, assigned)) return;
      const b = moduleBinding(rw, loop, id);
      if (b !== null) {
        if (assigned && b.fixed) refuse();
        bindings.set(id.name, b);
        return;
      }
      const c = capturedBinding(rw, loop, id);
      if (c === null || (assigned && c.fixed)) refuse();
      captured.set(id.name, c as { tdz: boolean; fixed: boolean });
    };
    for (const o of objects) {
      if (o.type === 'Identifier') local(o);
      else if (!thisReadable(rw, loop.fn)) refuse();
    }
    for (const [name, id] of ids) if (name !== h.j) local(id);
    // a loop variable declared before the loop: a local of the function that reads and takes its assignments without
    // an exception anywhere in the loop (not a `const`, not in its temporal dead zone), or the range check would
    // record accesses of a loop that throws before its first iteration
    if (h.variable !== null && !loopLocal(rw, loop, h.variable, true)) refuse();
    for (const id of lengths.values()) if (!rowTemps.has(id.name)) local(id);
    const numbers = new Set<string>([...ids.keys()].filter((n) => n !== h.j));
    for (const [name, id] of body.free) {
      if (
        name === h.j ||
        views.includes(name) ||
        rows.some((r) => r.x === name) ||
        body.declared.has(name) ||
        body.constantNames.has(name)
      )
        continue;
      local(id, body.assigned.has(name));
      numbers.add(name);
    }
    // code run in the loop could assign a variable through a closure (a top-level binding from any function): one of
    // its views, rows' arrays, indices or bounds, or of the variables it reads?
    const variables = objects.filter((o): o is E.Identifier => o.type === 'Identifier');
    const lengthVariables = [...lengths.values()].filter((id) => !rowTemps.has(id.name));
    const changeable = [...variables, ...ids.values(), ...body.free.values(), ...lengthVariables].some(
      (id) => {
        const { name } = id;
        if (!numbers.has(name) && !objectNames.has(name)) return false;
        const b = bindings.get(name) ?? captured.get(name);
        return b === undefined ? closureWritten(rw, loop, id) : !b.fixed;
      },
    );
    // opaque operations run code (`./opaque.ts`): none of those, nor the loop's variable when it is a `var` (its
    // iterations would leave the range the cover check checked), nor member numbers (the code could assign them)
    if (body.opaque.length > 0) {
      // the header's declaration, or the variable declared before the loop (a reference the analysis knows)
      const init = (node as E.ForStatement).init;
      const variable =
        init?.type === 'VariableDeclaration' ? (init.declarations[0].id as E.Identifier) : h.variable;
      if (variable === null) refuse();
      if (changeable || closureWritten(rw, loop, variable as E.Identifier) || members.list.length > 0)
        refuse();
    }
    for (const name of counters.keys()) ints.add(name); // after the tests of `fixed`: a counter is assigned
    // a covered loop records nothing: any order of reads and writes
    for (const v of loose ? [] : views) {
      const of = body.accesses.filter((a) => a.view === v);
      if (!of.some((a) => a.kind !== 1)) continue; // only written
      for (let k = 0; k < of.length; k++)
        if (of[k].kind === 1 && !of.slice(0, k).some((a) => a.kind !== 1 && a.index === of[k].index))
          refuse();
    }
    return {
      temp: tempIn(loop.scope),
      j: h.j,
      lo,
      hi,
      step: h.step,
      inclusive: h.inclusive,
      until: h.until,
      down: h.down,
      accesses: body.accesses,
      numbers,
      calls: body.calls,
      ints,
      views,
      lengths: [...lengths.keys()],
      counters,
      aliases: body.aliases,
      constants: [...body.constantNames.values()],
      bindings: [...new Set([...bindings.values()].map((b) => b.statement))],
      declared: [...captured].filter(([, c]) => c.tdz).map(([name]) => name),
      rows,
      members: members.list,
      bounds,
      typed: rows.length > 0 || changeable,
      covered: loose,
      nested: body.nested,
      opaque: body.opaque,
      syncs: body.opaque.length > 0 ? tempIn(loop.scope) : null,
      skip: skip ? { ...skip, temp: tempIn(loop.scope) } : null,
    };
  } catch (e) {
    if (e instanceof Refused) return null;
    throw e;
  }
}
