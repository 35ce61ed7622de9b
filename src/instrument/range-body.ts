/**
 * The walk of a candidate range-checked loop's body (`./ranges.ts`, whose header gives the rules): its element
 * accesses in evaluation order ({@link Planned}), and what it reads, declares and assigns ({@link Body}).
 */

import type * as E from 'estree';
import { PURE_METHODS } from '../hooks/names.js';
import { ARITHMETIC, operandLiteral, UNARY } from './callees.js';
import type { MemberNumbers } from './member-numbers.js';
import { type MemberView, memberView, objectName } from './member-views.js';
import { opaqueOperands } from './opaque.js';
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
} from './range-grammar.js';
import { literalValue, type N, namedMethodCall, unparen } from './syntax.js';

/** One element access of a range-checked loop, in evaluation order. */
export interface Planned {
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
   * counted before its value, `++c` after); when `c` is a counter (`./ranges.ts` `RangePlan.counters`), the index is `c` at
   * the loop's entry plus `at` plus its increments per iteration times the iterations before.
   */
  counter?: { name: string; at: number; bumped: boolean };
  /**
   * An access `X[e][i]` of a row `X[e]` of an array of views (`e` without the loop's variable): the array, the row's
   * index, and the index's text; or an access `O.p[i]` of a member view (`./member-views.ts`): `O`, no index, and
   * `"p"`. The row's key (`X[` the text `]`) is the access's `view` until `./ranges.ts` `rangePlan` names the temporary that
   * holds the row (`./ranges.ts` `RangePlan.rows`).
   */
  row?: { x: MemberView['x']; e: E.Expression | null; text: string };
  /**
   * The aliases of an access of an unrolled inner loop ({@link Body.inner}): the body's, with the inner loop's
   * variable standing for its value in that inner iteration; else the body's.
   */
  aliases?: Aliases;
}

/** The key of the row `X[text]` (or member view `O["p"]`): its accesses' `view` until the rows are named. */
export const rowViewKey = (x: MemberView['x'], text: string): string => `${objectName(x)}[${text}]`;

/** Iterations past which an inner loop is not unrolled ({@link Body.inner}). */
const MAX_UNROLLED = 16;

/** Accesses past which a loop with unrolled inner loops is not range-checked: the guard lists each. */
const MAX_UNROLLED_ACCESSES = 128;

/** The walk of a candidate loop's body: what it reads, declares, assigns and accesses. */
export class Body {
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
  /** The calls `M.f(...)` of the body (`f` of `PURE_METHODS`), by the texts `M` and `f`. */
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
   * that the constants are initialized, `./range-guard.ts` `initializedTest`)
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
        // the test of an `if` of the body's statements runs in every iteration (no early exit but in a covered loop)
        this.expression(s.test, this.loose);
        this.branch(s.consequent);
        if (s.alternate) this.branch(s.alternate);
        return;
      default:
        refuse();
    }
  }

  /**
   * An `if` branch: no declarations, no element accesses (`conditional`) but in a covered loop, or reads that
   * {@link readBefore} finds checked already.
   */
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

  /**
   * Visits `e` in evaluation order; `conditional`: it may not run, so it may not access elements, but in a covered
   * loop, or read one that {@link readBefore} finds checked already.
   */
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
        if (x.computed || !this.members.add(x, this.aliases)) {
          const read = this.element(x, 0, conditional);
          if (!conditional || this.loose) this.accesses.push(read);
          else if (!this.readBefore(read)) refuse();
        }
        return;
      case 'CallExpression': {
        // `M.f(...)`, f of PURE_METHODS: the guard tests that `M.f` is that built-in as the loop is entered; or
        // `f(...)`, f a pure function of the module (`./callees.ts`)
        const named = namedMethodCall(x, PURE_METHODS);
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
      h.invariants.size > 0 ||
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

  /**
   * Whether the conditional read `read` of a range-checked loop (under `?:`, `&&`, `||`, `??` or an `if`) needs no
   * check of its own (RedCard, Flanagan & Freund, ECOOP 2013: a check redundant with an earlier one of the same
   * location in the same epoch): an access listed before it in the iteration, always run, read the same element
   * (the same view, the same index text), and no write of that view came between (the per-access read would follow
   * the thread's own write, and leave a read record the range check does not). Then the read runs plain under the
   * loop's guard, unlisted: its element's read is checked and recorded by that earlier access, and the body has no
   * synchronization between them.
   */
  private readBefore(read: Planned): boolean {
    for (let k = this.accesses.length - 1; k >= 0; k--) {
      const a = this.accesses[k];
      if (a.view !== read.view) continue;
      if (a.kind !== 0) return false;
      if (a.index === read.index) return true;
    }
    return false;
  }

  /** An update of variable `name`: an increment that always runs (`always`), or another assignment. */
  private bump(name: string, always: boolean): void {
    this.assigned.add(name);
    if (always) this.bumps.set(name, (this.bumps.get(name) ?? 0) + 1);
    else this.otherwise.add(name);
  }

  /** The planned access of element access `m` (its index evaluated: increments counted), not yet listed. */
  private element(m: E.MemberExpression, kind: 0 | 1 | 2, conditional: boolean): Planned {
    // a conditional access of a range-checked loop: only a read, without an increment ({@link readBefore})
    const k = unparen(m.property);
    if (conditional && !this.loose && (kind !== 0 || k.type === 'UpdateExpression' || this.depth > 0))
      refuse();
    if (!m.computed || m.optional) refuse();
    if (m.object.type !== 'Identifier') return this.rowElement(m, kind);
    const view = (m.object as E.Identifier).name;
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
   * row's key (`X[` the text of `e` `]`, or `O["p"]`), which `./ranges.ts` `rangePlan` replaces by the temporary the guard
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
      view: rowViewKey(row.x, row.text),
      index: text,
      kind,
      coef,
      by,
      node: m.property as E.Expression,
      row,
    };
  }
}
