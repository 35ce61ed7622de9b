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
 * and each access's stride negated) qualifies
 * when its body is straight-line code that can neither exit early nor run other code: expression statements, `let`
 * / `const` / `var` declarations at the top of the body, `if`s without element accesses; operators on numbers
 * (no `in`, `instanceof`, `delete`, `new`, property reads other than elements, string or BigInt literals; no
 * calls but `M.f(...)` with `f` one of `PURE_MATH`, `../hooks/names.ts`, whose value the guard tests to be that
 * built-in, `__goldilocks.pure(() => M, "f")`, the body not assigning `M`: on numbers it runs no other code; and
 * `f(...)` with `f` a pure function of the module, `./callees.ts`, known when the module is rewritten);
 * element accesses `V[a*j + b]` only where they always run (not under `?:`, `&&`, `||`, `??` or an `if`),
 * `a` an integer literal, or one times a part without `j` (a column `b[k * n + j]`: the guard computes the stride
 * `n`), `b` (and `LO`) without `j` in the grammar of {@link affine} (bitwise operators and `% N` allowed
 * there), `V` and the variables of `b`, `LO` and `HI` locals of the function declared before the loop
 * (`./scope.ts` `loopLocal`) that the body does not assign (as it runs no other code, they keep their value
 * throughout the loop: an outer loop's variable qualifies), the module's top-level bindings (`./scope.ts`
 * `moduleBinding`, whose declarations the guard first tests to have run, {@link declaredTest}), the bindings of an
 * enclosing function (`./scope.ts` `capturedBinding`: `rows.forEach((row) => ...)` bounded by the function's `n`, a
 * `function sweep(c)` nested in `main()` over its `grid`; the `let`s and `const`s tested first with
 * `Hooks.declared`), or the module's
 * number constants, which the guard first tests to be initialized ({@link initializedTest}); `V` may be a row `X[e]`
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
 * An inner `for` loop of number-literal bounds and at most {@link MAX_UNROLLED} iterations at the top of the body is
 * unrolled into the body ({@link Body.inner}): its accesses are the outer loop's, one per inner iteration, and take
 * its guard (`./loops.ts` `inLoop`). `LO` and `HI` may contain `V.length` (`V` invariant; a loop going down starts at
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
 * ({@link skipTest}); else the loop is a covered one, as before.
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
import { PURE_MATH } from '../hooks/names.js';
import { ARITHMETIC, operandLiteral, pureCallee, UNARY } from './callees.js';
import { lengthView, type MemberNumber, MemberNumbers, memberKey, numberTest } from './member-numbers.js';
import { type MemberView, memberView, objectName, thisReadable } from './member-views.js';
import { afterOpaque, keepSyncs, opaqueOperands } from './opaque.js';
import { type ParitySkip, paritySkip } from './parity.js';
import { HOOKS_GLOBAL, INITIALIZED, type Loop, type Rewriter, SITE_FN } from './rewriter.js';
import { capturedBinding, closureWritten, loopLocal, moduleBinding, moduleConstant } from './scope.js';
import { literalValue, type N, namedMethodCall, unparen } from './syntax.js';
import { tempIn } from './temporaries.js';

/** One element access of a range-checked loop, in evaluation order. */
interface Planned {
  member: E.MemberExpression & N;
  view: string;
  /** The index with the loop variable printed as `j`: equal texts, equal indices in an iteration. */
  index: string;
  /** 0 read, 1 write, 2 read then write (a compound assignment or update). */
  kind: 0 | 1 | 2;
  /** The coefficient of the loop variable in the index: `coef`, times the text `by` when given ({@link affine}). */
  coef: number;
  by?: string;
  node: E.Expression;
  /**
   * An index `c`, `c++` or `++c`: `c`'s name, and its increments in the iteration before the index's value (`c++`
   * counted before its value, `++c` after); when `c` is a counter ({@link RangePlan} `counters`), the index is `c` at
   * the loop's entry plus `at` plus its increments per iteration times the iterations before.
   */
  counter?: { name: string; at: number; bumped: boolean };
  /**
   * An access `X[e][i]` of a row `X[e]` of an array of views (`e` without the loop's variable): the array, the row's
   * index, and the index's text; or an access `O.p[i]` of a member view (`./member-views.ts`): `O`, no index, and
   * `"p"`. The row's key (`X[` the text `]`) is the access's `view` until {@link rangePlan} names the temporary that
   * holds the row ({@link RangePlan} `rows`).
   */
  row?: { x: MemberView['x']; e: E.Expression | null; text: string };
  /**
   * The aliases of an access of an unrolled inner loop ({@link Body.inner}): the body's, with the inner loop's
   * variable standing for its value in that inner iteration; else the body's.
   */
  aliases?: Aliases;
}

/** What {@link rangePlan} found for a loop. */
export interface RangePlan {
  /** The guard temporary of every access of the loop. */
  temp: string;
  j: string;
  lo: E.Expression;
  hi: E.Expression;
  step: number;
  inclusive: boolean;
  /** `j > HI` or `j >= HI` with `j--` or `j -= c`: the loop goes down from `LO`. */
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

/** Iterations past which an inner loop is not unrolled ({@link Body.inner}). */
const MAX_UNROLLED = 16;

/** Accesses past which a loop with unrolled inner loops is not range-checked: the guard lists each. */
const MAX_UNROLLED_ACCESSES = 128;

/** The loop variable in an index's text (not an identifier: no other variable prints as it). */
const J = '#';

class Refused extends Error {}
const refuse = (): never => {
  throw new Refused();
};

/** The `const`s of a loop body declared with an affine initializer, by name: their initializers. */
type Aliases = ReadonlyMap<string, E.Node>;

/**
 * The identifiers of `e` (in the grammar of indices: identifiers, unary and binary operators) into `out`, by name;
 * with `aliases`, those of an alias's initializer in place of the alias.
 */
function identifiers(e: E.Node, out: Map<string, E.Identifier>, aliases?: Aliases): void {
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
function affine(
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
        const a = affine(alias, j, jText, ids, undefined, aliases);
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
interface Affine {
  text: string;
  coef: number;
  by?: string;
}

/** The walk of a candidate loop's body: what it reads, declares, assigns and accesses. */
class Body {
  readonly accesses: Planned[] = [];
  readonly declared = new Set<string>();
  /** The `const`s of `declared`: assigning one throws (a loop that would stop at its first iteration). */
  readonly constants = new Set<string>();
  /**
   * The `const`s of `declared` whose initializer is affine in `j`: an index may name them (`affine`); and by their
   * keys `O.p` the member numbers (`./member-numbers.ts`), each standing for its temporary.
   */
  readonly aliases = new Map<string, E.Node>();
  /** Identifiers read or assigned that the body does not declare, with a node of each. */
  readonly free = new Map<string, E.Identifier>();
  /** The names read as values (operands, arguments, initializers), not as the objects of element accesses. */
  readonly operands = new Set<string>();
  readonly assigned = new Set<string>();
  /** Uses of names, by position, to check that a declared name is used only after its declaration. */
  readonly uses: Array<{ name: string; pos: number }> = [];
  readonly declaredAt = new Map<string, number>();
  /** The calls `M.f(...)` of the body (`f` of `PURE_MATH`), by the texts `M` and `f`. */
  readonly calls: Array<{ object: string; name: string }> = [];
  /** Per variable, its increments `++` so far in the walk that always run. */
  readonly bumps = new Map<string, number>();
  /** Variables assigned otherwise than by an increment that always runs. */
  readonly otherwise = new Set<string>();
  /** The `let`s of the body (not of an inner loop) declared with a safe-integer literal, by name: their value. */
  readonly literals = new Map<string, number>();
  /** The inner loops unrolled into the accesses ({@link inner}). */
  readonly nested = new Set<E.Node>();
  /** The names an inner loop declares (its variable, its body's declarations), and its range: used only inside. */
  readonly scoped: Array<{ name: string; start: number; end: number }> = [];
  /** Inner loops being walked. */
  private depth = 0;
  /** A covered loop's opaque operations (`./opaque.ts`). */
  readonly opaque: Array<E.Expression & N> = [];
  /**
   * The module constants the body reads (`./scope.ts` `moduleConstant`), also in `aliases`: no typeof test. By name,
   * their initializers.
   */
  readonly constantNames = new Map<string, E.Expression & N>();

  /**
   * @param loose the walk of a covered loop (`continue`, `break`, conditional element accesses allowed)
   * @param pure whether a call's callee identifier names a pure module function (`./callees.ts`)
   * @param constant the initializer of the module constant an identifier names, if any (read in its temporal dead
   * zone it throws: a covered loop survives that, as it records nothing; a range-checked loop's guard first tests
   * that the constants are initialized, {@link initializedTest})
   * @param members the loop's member numbers (`./member-numbers.ts`), registered as the walk meets them, each also
   * among {@link aliases}
   */
  constructor(
    readonly j: string,
    readonly loose: boolean,
    private readonly pure: (callee: E.Identifier) => boolean,
    private readonly constant: (id: E.Identifier) => E.Expression | null,
    private readonly members: MemberNumbers,
  ) {}

  use(id: E.Identifier): void {
    this.uses.push({ name: id.name, pos: (id as N).start });
    if (!this.free.has(id.name)) this.free.set(id.name, id);
    this.constantOf(id);
  }

  /** Registers `id` as an alias of its initializer when it names a module constant the body does not declare. */
  private constantOf(id: E.Identifier): void {
    if (this.declared.has(id.name) || this.aliases.has(id.name)) return;
    const init = this.constant(id);
    if (init === null) return;
    this.aliases.set(id.name, init);
    this.constantNames.set(id.name, init as E.Expression & N);
  }

  /**
   * An opaque operation of a covered loop (`./opaque.ts`): its operands walked (no element access among them), itself
   * listed; false when `e` is none.
   */
  private opaqueStatement(e: E.Expression, conditional: boolean): boolean {
    const operands = this.loose ? opaqueOperands(e, this.pure) : null;
    if (operands === null) return false;
    const accesses = this.accesses.length;
    for (const x of operands) this.expression(x, conditional);
    if (this.accesses.length !== accesses) refuse();
    this.opaque.push(e as E.Expression & N);
    return true;
  }

  statement(s: E.Statement, top: boolean): void {
    switch (s.type) {
      case 'ExpressionStatement':
        if (!this.opaqueStatement(s.expression, false)) this.expression(s.expression, false);
        return;
      case 'EmptyStatement':
        return;
      case 'ContinueStatement':
      case 'BreakStatement':
        if (!this.loose || s.label) refuse();
        return;
      case 'BlockStatement':
        for (const x of s.body) this.statement(x, false);
        return;
      case 'ForStatement':
        if (this.loose || !top || this.depth > 0) refuse(); // one level of inner loops
        this.inner(s);
        return;
      case 'VariableDeclaration':
        // not `var`: one declared without an initializer keeps, in each iteration, what it held before
        if (!top || s.kind === 'var') refuse();
        for (const d of s.declarations) {
          if (d.id.type !== 'Identifier') refuse();
          const name = (d.id as E.Identifier).name;
          if (this.declared.has(name) || name === this.j) refuse();
          if (d.init) this.expression(d.init, false);
          this.declared.add(name);
          if (s.kind === 'const') this.constants.add(name);
          if (s.kind === 'const' && d.init && this.isAffine(d.init)) this.aliases.set(name, d.init);
          const value = s.kind === 'let' && d.init && this.depth === 0 ? literalValue(d.init) : undefined;
          if (value !== undefined && Number.isSafeInteger(value)) this.literals.set(name, value);
          this.declaredAt.set(name, (d as unknown as N).end);
        }
        return;
      case 'IfStatement':
        this.expression(s.test, true);
        this.branch(s.consequent);
        if (s.alternate) this.branch(s.alternate);
        return;
      default:
        refuse();
    }
  }

  /** An `if` branch: no declarations, no element accesses (`conditional`) but in a covered loop. */
  private branch(s: E.Statement): void {
    if (s.type === 'BlockStatement') for (const x of s.body) this.branch(x);
    else if (s.type === 'ExpressionStatement') {
      if (!this.opaqueStatement(s.expression, true)) this.expression(s.expression, true);
    } else if (s.type === 'ContinueStatement' || s.type === 'BreakStatement') this.statement(s, false);
    else if (s.type === 'IfStatement') {
      this.expression(s.test, true);
      this.branch(s.consequent);
      if (s.alternate) this.branch(s.alternate);
    } else if (s.type !== 'EmptyStatement') refuse();
  }

  /** Visits `e` in evaluation order; `conditional`: it may not run, so it may not access elements. */
  expression(e: E.Node, conditional: boolean): void {
    const x = unparen(e);
    switch (x.type) {
      case 'Identifier':
        if (x.name === 'undefined' || x.name === 'NaN' || x.name === 'Infinity') refuse(); // globals
        this.use(x);
        this.operands.add(x.name);
        return;
      case 'Literal':
        if (!operandLiteral(x.value)) refuse();
        return;
      case 'BinaryExpression':
        if (!ARITHMETIC.has(x.operator)) refuse();
        this.expression(x.left, conditional);
        this.expression(x.right, conditional);
        return;
      case 'UnaryExpression':
        if (!UNARY.has(x.operator)) refuse();
        this.expression(x.argument, conditional);
        return;
      case 'LogicalExpression':
        this.expression(x.left, conditional);
        this.expression(x.right, true);
        return;
      case 'ConditionalExpression':
        this.expression(x.test, conditional);
        this.expression(x.consequent, true);
        this.expression(x.alternate, true);
        return;
      case 'SequenceExpression':
        for (const y of x.expressions) this.expression(y, conditional);
        return;
      case 'MemberExpression':
        // `O.p`: a member number (`./member-numbers.ts`), read by the guard; `O[k]`: an element access
        if (x.computed || !this.members.add(x, this.aliases))
          this.accesses.push(this.element(x, 0, conditional));
        return;
      case 'CallExpression': {
        // `M.f(...)`, f of PURE_MATH: the guard tests that `M.f` is that built-in as the loop is entered; or
        // `f(...)`, f a pure function of the module (`./callees.ts`)
        const named = namedMethodCall(x, PURE_MATH);
        if (named === null && (x.optional || x.callee.type !== 'Identifier' || !this.pure(x.callee)))
          refuse();
        for (const a of x.arguments) {
          if (a.type === 'SpreadElement') refuse();
          this.expression(a, conditional);
        }
        const call = named && { object: named.object.name, name: named.method };
        if (call && !this.calls.some((c) => c.object === call.object && c.name === call.name))
          this.calls.push(call);
        return;
      }
      case 'AssignmentExpression': {
        const t = unparen(x.left);
        if (t.type === 'Identifier') {
          if (x.operator === '&&=' || x.operator === '||=' || x.operator === '??=') refuse();
          this.use(t);
          this.assigned.add(t.name);
          this.otherwise.add(t.name);
          this.expression(x.right, conditional);
          return;
        }
        if (
          t.type !== 'MemberExpression' ||
          x.operator === '&&=' ||
          x.operator === '||=' ||
          x.operator === '??='
        )
          refuse();
        // the target's index is evaluated before the right-hand side (its increments first), the write after it;
        // a compound assignment's read comes before the right-hand side and stands for the pair
        const planned = this.element(t as E.MemberExpression, x.operator === '=' ? 1 : 2, conditional);
        if (x.operator !== '=') this.accesses.push(planned);
        this.expression(x.right, conditional);
        if (x.operator === '=') this.accesses.push(planned);
        return;
      }
      case 'UpdateExpression': {
        const t = unparen(x.argument);
        if (t.type === 'Identifier') {
          this.use(t);
          this.bump(t.name, x.operator === '++' && !conditional);
          return;
        }
        if (t.type !== 'MemberExpression') refuse();
        this.accesses.push(this.element(t as E.MemberExpression, 2, conditional));
        return;
      }
      default:
        refuse();
    }
  }

  /**
   * An inner loop `for (let r = A; r < B; r += c)` of number literals `A`, `B`, `c` (at most
   * {@link MAX_UNROLLED} iterations) at the top of the body, unrolled: its body is walked once as the body's own
   * statements with `r` standing for `A` (an alias), then its accesses are listed again for each later iteration,
   * `r` standing for its value there and each counter index further by the counter's increments of one inner
   * iteration, so that each access of the inner loop is an access of the outer loop per inner iteration. The names
   * it declares are used only inside it ({@link scoped}), its variable is not assigned in it.
   */
  private inner(s: E.ForStatement): void {
    const h = header(s);
    const n = literalIterations(h);
    const lo = literalValue(h.lo);
    if (
      (s.init as E.VariableDeclaration).kind !== 'let' ||
      n === undefined ||
      n < 1 ||
      n > MAX_UNROLLED ||
      lo === undefined ||
      !Number.isSafeInteger(lo) ||
      h.j === this.j ||
      this.declared.has(h.j)
    )
      refuse();
    const { start, end } = s as E.ForStatement & N;
    const before = new Set(this.declared);
    this.declared.add(h.j);
    this.declaredAt.set(h.j, start);
    this.nested.add(s);
    const from = this.accesses.length;
    const bumps = new Map(this.bumps);
    this.aliases.set(h.j, literal(lo as number));
    this.depth++;
    if (s.body.type === 'BlockStatement') for (const x of s.body.body) this.statement(x, true);
    else this.statement(s.body, false);
    this.depth--;
    if (this.assigned.has(h.j)) refuse();
    for (const name of this.declared) if (!before.has(name)) this.scoped.push({ name, start, end });
    const walked = this.accesses.slice(from);
    const first = new Map(this.aliases);
    for (const a of walked) a.aliases = first;
    const per = (name: string) => (this.bumps.get(name) ?? 0) - (bumps.get(name) ?? 0); // one inner iteration's
    for (let r = 1; r < (n as number); r++) {
      const aliases = new Map(this.aliases);
      aliases.set(h.j, literal((lo as number) + r * h.step));
      for (const a of walked) {
        const c = a.counter;
        if (c === undefined) {
          const index = affine(a.node, this.j, J, new Set(), undefined, aliases).text;
          this.accesses.push({ ...a, index, aliases });
        } else {
          const at = c.at + r * per(c.name);
          this.accesses.push({ ...a, index: `@${c.name}+${at}`, counter: { ...c, at }, aliases });
        }
      }
    }
    for (const [name, b] of this.bumps) this.bumps.set(name, b + ((n as number) - 1) * per(name));
    this.aliases.delete(h.j);
    if (this.accesses.length > MAX_UNROLLED_ACCESSES) refuse();
  }

  /** Is `e` affine in `j` over the aliases so far? */
  private isAffine(e: E.Node): boolean {
    try {
      affine(e, this.j, J, new Set(), undefined, this.aliases);
      return true;
    } catch (x) {
      if (x instanceof Refused) return false;
      throw x;
    }
  }

  /** An update of variable `name`: an increment that always runs (`always`), or another assignment. */
  private bump(name: string, always: boolean): void {
    this.assigned.add(name);
    if (always) this.bumps.set(name, (this.bumps.get(name) ?? 0) + 1);
    else this.otherwise.add(name);
  }

  /** The planned access of element access `m` (its index evaluated: increments counted), not yet listed. */
  private element(m: E.MemberExpression, kind: 0 | 1 | 2, conditional: boolean): Planned {
    if ((conditional && !this.loose) || !m.computed || m.optional) refuse();
    if (m.object.type !== 'Identifier') return this.rowElement(m, kind);
    const view = (m.object as E.Identifier).name;
    const k = unparen(m.property);
    const c = k.type === 'UpdateExpression' ? unparen(k.argument) : k;
    if (
      !this.loose && // a covered loop's increments may not run (a `continue` before them): no counters
      c.type === 'Identifier' &&
      c.name !== this.j &&
      !this.aliases.has(c.name) &&
      (k === c || (k as E.UpdateExpression).operator === '++')
    ) {
      // `c`, `c++`, `++c`: a counter's value when `c` is one (rangePlan decides)
      const before = this.bumps.get(c.name) ?? 0;
      const prefix = k !== c && (k as E.UpdateExpression).prefix;
      this.use(m.object as E.Identifier);
      this.use(c);
      if (k !== c) this.bump(c.name, true);
      const at = before + (prefix ? 1 : 0);
      const member = m as E.MemberExpression & N;
      const counter = { name: c.name, at, bumped: k !== c };
      return {
        member,
        view,
        index: `@${c.name}+${at}`,
        kind,
        coef: 0,
        node: m.property as E.Expression,
        counter,
      };
    }
    const { text, coef, by } = this.affineIndex(m.property);
    this.use(m.object as E.Identifier);
    return {
      member: m as E.MemberExpression & N,
      view,
      index: text,
      kind,
      coef,
      by,
      node: m.property as E.Expression,
    };
  }

  /**
   * The index `e` of an element access in the grammar of {@link affine} (else refuses), its variables used where it
   * is (aliases included: each used after its declaration), the module constants among them standing for their
   * literals.
   */
  private affineIndex(e: E.Node): ReturnType<typeof affine> {
    const named = new Map<string, E.Identifier>();
    identifiers(e, named);
    for (const id of named.values()) this.constantOf(id);
    this.members.within(e, false, this.aliases);
    const index = affine(e, this.j, J, new Set(), undefined, this.aliases);
    for (const id of named.keys()) this.uses.push({ name: id, pos: (e as N).start });
    return index;
  }

  /**
   * The planned access `X[e][i]` of element access `m` whose object is not a variable: a row `X[e]` of an array of
   * views, `X` a variable, `e` in the grammar of {@link affine} without the loop's variable (a matrix's `g[i - 1][j]`,
   * `i` an outer loop's), or a member view `O.p` (`./member-views.ts`: `this.grid[k]`); its view is named by the
   * row's key (`X[` the text of `e` `]`, or `O["p"]`), which {@link rangePlan} replaces by the temporary the guard
   * reads the row into. Not counters (`X[e][c++]`).
   */
  private rowElement(m: E.MemberExpression, kind: 0 | 1 | 2): Planned {
    const o = unparen(m.object);
    const member = memberView(o);
    let row: NonNullable<Planned['row']>;
    if (member !== null) row = { x: member.x, e: null, text: JSON.stringify(member.p) };
    else {
      if (
        o.type !== 'MemberExpression' ||
        !o.computed ||
        o.optional ||
        unparen(o.object).type !== 'Identifier'
      )
        refuse();
      const e = (o as E.MemberExpression).property as E.Expression;
      const index = this.affineIndex(e);
      if (index.coef !== 0) refuse();
      row = { x: unparen((o as E.MemberExpression).object) as E.Identifier & N, e, text: index.text };
    }
    if (row.x.type === 'Identifier') this.use(row.x);
    const { text, coef, by } = this.affineIndex(m.property);
    return {
      member: m as E.MemberExpression & N,
      view: `${objectName(row.x)}[${row.text}]`,
      index: text,
      kind,
      coef,
      by,
      node: m.property as E.Expression,
      row,
    };
  }
}

/** The loop variable's name, `LO`, `HI`, the step and `<=` of `loop`, else refuses. */
function header(node: E.ForStatement) {
  const init = node.init;
  if (init?.type !== 'VariableDeclaration' || init.kind === 'const' || init.declarations.length !== 1)
    refuse();
  const d = (init as E.VariableDeclaration).declarations[0];
  if (d.id.type !== 'Identifier' || !d.init) refuse();
  const j = (d.id as E.Identifier).name;
  const test = node.test ? unparen(node.test) : null;
  if (
    test?.type !== 'BinaryExpression' ||
    !['<', '<=', '>', '>='].includes(test.operator) ||
    unparen(test.left).type !== 'Identifier' ||
    (unparen(test.left) as E.Identifier).name !== j
  )
    refuse();
  const t = test as E.BinaryExpression;
  const down = t.operator === '>' || t.operator === '>='; // j-- or j -= c
  const u = node.update ? unparen(node.update) : null;
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
  const inclusive = t.operator === '<=' || t.operator === '>=';
  return { j, lo: d.init as E.Expression, hi: t.right as E.Expression, step, inclusive, down };
}

/**
 * Loops whose bounds are number literals and that iterate fewer times than this are left to their per-access
 * checks: the range check's fixed cost (the guard's list, the hook, the filter scan of every view) exceeds what it
 * saves on so few accesses, most of them decided by the same-epoch fast path (crypt's 8 rounds over 52 subkeys, unless they are
 * unrolled into their outer loop's check: {@link Body.inner}).
 */
const MIN_LITERAL_ITERATIONS = 16;

/** A number literal node of `value` (a safe integer), standing for an unrolled inner loop's variable. */
const literal = (value: number): E.Literal => ({ type: 'Literal', value, raw: String(value) });

/** The iterations of the loop of header `h` when both its bounds are number literals, else undefined. */
function literalIterations(h: ReturnType<typeof header>): number | undefined {
  const value = literalValue;
  const lo = value(h.lo);
  const hi = value(h.hi);
  if (lo === undefined || hi === undefined) return undefined;
  const span = (h.down ? lo - hi : hi - lo) + (h.inclusive ? 1 : 0);
  return span > 0 ? Math.ceil(span / h.step) : 0;
}

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
 * The range plan of `loop` when it qualifies (see the file header), its guard temporary allocated; else null.
 * Called before the loop's body is rewritten.
 */
export function rangePlan(rw: Rewriter, loop: Loop): RangePlan | null {
  if (loop.node.type !== 'ForStatement') return null;
  return planOf(rw, loop, false) ?? planOf(rw, loop, true);
}

/** The range plan of `loop` (a `for` loop), a covered loop's when `loose`; else null. */
function planOf(rw: Rewriter, loop: Loop, loose: boolean): RangePlan | null {
  try {
    const node = loop.node as unknown as E.ForStatement;
    const h = header(node);
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
    const skip =
      !loose && !h.down && node.body.type === 'BlockStatement' ? paritySkip(node.body.body[0]) : null;
    if (skip) body.expression(skip.test, true); // its variables' uses; no element access
    if (node.body.type === 'BlockStatement')
      for (const x of skip ? node.body.body.slice(1) : node.body.body) body.statement(x, true);
    else body.statement(node.body, false);
    if (body.accesses.length === 0 || (loose && body.accesses.length > MAX_COVERED)) return null;
    const ints = new Set<string>();
    const his = new Set<string>();
    const lengths = new Map<string, E.Identifier>();
    // `V.length` in either bound (a loop going down starts at `a.length - 1`): the guard tests `fixedLength(V)` first;
    // member numbers `O.p` stand for their temporaries
    for (const e of [h.lo, h.hi]) members.within(e, true);
    const bound = (e: E.Node, vars: Set<string>) => affine(e, h.j, J, vars, lengths, members.aliases);
    if (bound(h.lo, ints).coef !== 0 || bound(h.hi, his).coef !== 0) refuse();
    // a parity skip alternates when A's coefficient (a literal) times the step is odd, and K is the same in every
    // iteration
    if (skip) {
      const parity = affine(skip.a, h.j, J, ints, undefined, body.aliases);
      if (parity.by !== undefined || (parity.coef * h.step) % 2 === 0) refuse();
      if (affine(skip.k, h.j, J, ints, undefined, body.aliases).coef !== 0) refuse();
    }
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
      ...lengths.keys(),
      ...rows.map((r) => r.x),
      ...objects.filter((o): o is E.Identifier => o.type === 'Identifier').map((o) => o.name),
    ]);
    const fixed = new Set([h.j, ...ints, ...his, ...objectNames]);
    const ids = new Map<string, E.Identifier>();
    identifiers(h.lo, ids);
    identifiers(h.hi, ids);
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
    for (const id of lengths.values()) local(id);
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
    const changeable = [...variables, ...ids.values(), ...body.free.values(), ...lengths.values()].some(
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
      const variable = (node.init as E.VariableDeclaration).declarations[0].id as E.Identifier;
      if (changeable || closureWritten(rw, loop, variable) || members.list.length > 0) refuse();
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
      ...h,
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
      bounds: members.aliases,
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

/**
 * The statement that sets a range-checked loop's guard (see the file header), `sites` the site index of each
 * planned access (null when one has none: then the guard is only the loop guards' `!shared` tests).
 */
export function rangeGuard(rw: Rewriter, plan: RangePlan, sites: Array<number | null>): string {
  const unshared = unsharedTest(plan);
  const keep = plan.syncs === null ? '' : `, ${keepSyncs(plan.syncs)}`;
  // the module's bindings and the enclosing functions' it reads, out of their temporal dead zone first; else every
  // access takes its own check
  const ready = readyTest(rw, plan);
  const none = plan.covered ? 0 : false;
  // the member numbers read into their temporaries first (`./member-numbers.ts`), tested as the other numbers
  const typed =
    plan.members.map(numberTest).join('') +
    [...plan.numbers].map((n) => `typeof ${n} === "number" && `).join('');
  // rows of arrays of views and member views (`Hooks.row`), read after the tests that make their indices numbers,
  // each tested to be a TypedArray, as are the loop's other views when `typed`: an array there could be the rows'
  // array (or hold it), its elements then written plain, and the later iterations would read other rows than the
  // ones checked; and an element access of any other object (a Proxy, a DataView) may run code (a trap, a getter on
  // its prototype chain) that replaces a row or a member, or assigns a variable the loop reads
  const tests = [
    ...plan.views
      .filter((v) => !plan.rows.some((r) => r.temp === v))
      .map((v) => `${HOOKS_GLOBAL}.typedArray(${v})`),
    ...plan.rows.map((r) => `${HOOKS_GLOBAL}.typedArray(${r.temp} = ${HOOKS_GLOBAL}.row(${r.x}, ${r.e}))`),
  ];
  const typedViews = plan.typed ? `${typed}${tests.join(' && ')}` : '';
  // with member numbers, every view a TypedArray before the span (`./member-numbers.ts`); not needed for the loop
  // to run plain when no view is shared
  const typedForSpan = plan.members.length > 0 && !plan.typed ? tests.map((t) => `${t} && `).join('') : '';
  const when = (guard: string) => {
    const g = typedViews === '' ? guard : `${typedViews} ? ${guard} : ${none}`;
    return ready === '' ? g : `${ready} ? ${g} : ${none}`;
  };
  if (sites.includes(null))
    return `${plan.temp} = ${when(plan.covered ? `${unshared} ? -1 : 0` : unshared)}${keep}`;
  const lo0 = affine(plan.lo, plan.j, J, new Set(), new Map(), plan.bounds).text;
  const hi = affine(plan.hi, plan.j, J, new Set(), new Map(), plan.bounds).text;
  // with a parity skip, the loop of the iterations that run the rest of the body: from the guard's temporary on,
  // twice the step
  const lo = plan.skip ? plan.skip.temp : lo0;
  const step = plan.skip ? 2 * plan.step : plan.step;
  // a loop going down, from LO while above HI: the iterations of one from HI up to LO, its indices from LO's down
  const bounds = plan.down ? `(${hi}), ${lo}` : `${lo}, (${hi})`;
  const sign = plan.down ? -1 : 1;
  const entries = plan.accesses.map((a, k) => {
    const c = a.counter;
    const first = c
      ? `(${c.name} + ${c.at})`
      : affine(a.node, plan.j, lo, new Set(), undefined, a.aliases ?? plan.aliases).text;
    const stride = c
      ? (plan.counters.get(c.name) as number)
      : a.by === undefined
        ? sign * a.coef * step
        : `(${sign * a.coef * step} * ${a.by})`;
    return `${a.view}, ${plan.views.indexOf(a.view)}, ${first}, ${stride}, ${a.kind}, ${sites[k]}`;
  });
  const initialized = plan.covered ? '' : initializedTest(rw, plan.constants);
  const skipped = plan.skip ? skipTest(plan, plan.skip, lo0, hi) : '';
  // the typeof tests: before the rows' reads and the TypedArray tests when `typed`, else here
  const check =
    `${initialized}${typedViews === '' ? typed : ''}${typedForSpan}${builtinTests(plan)}${skipped}${HOOKS_GLOBAL}.${plan.covered ? 'covered' : 'span'}(${SITE_FN}, ${bounds}, ` +
    `${step}, ${plan.inclusive ? 1 : 0}, [${[...plan.ints].join(', ')}], [${entries.join(', ')}])`;
  // a covered loop's guard is a number, one bit per access (false when a test fails: no bit)
  return `${plan.temp} = ${when(plan.covered ? `${unshared} ? -1 : ${check}` : `${unshared} || ${check}`)}${keep}`;
}

/** The test that none of `plan`'s views is shared (`Hooks.shared`): then its accesses run plain. */
export const unsharedTest = (plan: RangePlan): string =>
  plan.views.map((v) => `!${HOOKS_GLOBAL}.shared(${v})`).join(' && ');

/**
 * The test that the module's bindings and the enclosing functions' `let`s and `const`s that `plan`'s loop reads are
 * out of their temporal dead zone ({@link declaredTest}, `Hooks.declared`), or '' for none: the guard reads none
 * before it holds.
 */
export function readyTest(rw: Rewriter, plan: RangePlan): string {
  const captured =
    plan.declared.length > 0 ? `${HOOKS_GLOBAL}.declared(() => (${plan.declared.join(', ')}))` : '';
  return [declaredTest(rw, plan.bindings), captured].filter((t) => t !== '').join(' && ');
}

/**
 * The test that the top-level declarations `statements` of the module (`./scope.ts` `moduleBinding`) have run, so
 * that the bindings they declare are out of their temporal dead zone (ECMA-262 §9.1.1.1), or '' for none: each
 * statement is followed by `INITIALIZED = END;`, `END` its end offset, on its line, so that {@link INITIALIZED} holds
 * the end of the last such statement run (as {@link initializedTest}'s offsets: top-level statements run in source
 * order, once; an initializer `X` of {@link initializedTest} sets its start, below its statement's end), and the
 * test is `INITIALIZED >= E`, `E` the last of the statements' ends (undefined before any: false).
 */
function declaredTest(rw: Rewriter, statements: Array<E.Statement & N>): string {
  if (statements.length === 0) return '';
  for (const x of statements) {
    if (rw.initializers.has(x.end)) continue;
    rw.initializers.add(x.end);
    rw.ms.appendLeft(x.end, `;${INITIALIZED} = ${x.end};`);
  }
  return `${INITIALIZED} >= ${Math.max(...statements.map((x) => x.end))}`;
}

/**
 * The guard's test of a loop's parity skip `skip` (`./parity.ts`; `lo0` and `hi` the texts of the loop's bounds),
 * followed by ` && `: it sets the skip's temporary to the first iteration where the skip's test `P` is false, `LO` or
 * `LO + step`, and is true when `P` alternates (`P(LO) !== P(LO + step)`) and, for `A % 2`, `A` is not negative at
 * `LO` nor at `HI`. Its operands are numbers (the typeof tests before it): it runs no code.
 */
function skipTest(plan: RangePlan, skip: ParitySkip & { temp: string }, lo0: string, hi: string): string {
  const at = (e: E.Node, j: string) => affine(e, plan.j, j, new Set(), undefined, plan.aliases).text;
  const p = (j: string) =>
    `((${at(skip.a, j)} ${skip.operator} ${skip.operator === '%' ? 2 : 1}) ${skip.comparison} ${at(skip.k, j)})`;
  const next = `(${lo0} + ${plan.step})`;
  const signs = skip.operator === '%' ? ` && ${at(skip.a, lo0)} >= 0 && ${at(skip.a, `(${hi})`)} >= 0` : '';
  return `(${skip.temp} = ${p(lo0)} ? ${next} : ${lo0}, ${p(lo0)} !== ${p(next)}${signs}) && `;
}

/**
 * The guard's test that the module constants whose initializers are `inits` are out of their temporal dead zone
 * (ECMA-262 §9.1.1.1: read before its declaration ran, a `const` throws; the body of a range-checked loop must not),
 * followed by ` && `, or '' for none: each initializer `X` becomes `(INITIALIZED = START, X)`, `START` its offset, so
 * that the module's variable {@link INITIALIZED} (declared in the trailer, `./sites.ts`) holds the offset of the last
 * module constant initialized — top-level declarations run in source order — and the test is `INITIALIZED >= S`, `S`
 * the last of `inits` (undefined before any: false).
 */
function initializedTest(rw: Rewriter, inits: Array<E.Expression & N>): string {
  if (inits.length === 0) return '';
  for (const init of inits) {
    if (rw.initializers.has(init.start)) continue;
    rw.initializers.add(init.start);
    rw.ms.prependRight(init.start, `(${INITIALIZED} = ${init.start}, `);
    rw.ms.appendLeft(init.end, ')');
  }
  return `${INITIALIZED} >= ${Math.max(...inits.map((i) => i.start))} && `;
}

/**
 * The guard's tests of the built-ins the body calls (`Hooks.pure`) and of the views whose length the bound reads
 * (`Hooks.fixedLength`), each followed by ` && `.
 */
function builtinTests(plan: RangePlan): string {
  const objects = new Map<string, string[]>();
  for (const c of plan.calls) objects.set(c.object, [...(objects.get(c.object) ?? []), `"${c.name}"`]);
  // the object read by a function, inside the hook's try: a loop of no iteration would not read it at all
  const pure = [...objects]
    .map(([o, names]) => `${HOOKS_GLOBAL}.pure(() => ${o}, ${names.join(', ')}) && `)
    .join('');
  return pure + plan.lengths.map((v) => `${HOOKS_GLOBAL}.fixedLength(${v}) && `).join('');
}

/** What follows each opaque operation of a covered loop with some (`./opaque.ts`): its guard kept or cleared. */
export const opaqueGuard = (plan: RangePlan): string =>
  afterOpaque(plan.temp, plan.syncs as string, builtinTests(plan));
