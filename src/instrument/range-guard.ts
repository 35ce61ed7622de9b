/**
 * The guard of a range-checked or covered loop (`./ranges.ts`, whose header gives its shape): the statement that sets
 * it before the loop ({@link rangeGuard}) and the tests it is made of, which `./for-of.ts` and `./loops.ts` use too.
 */

import type * as E from 'estree';
import { numberTest } from './member-numbers.js';
import { afterOpaque, keepSyncs } from './opaque.js';
import type { ParitySkip } from './parity.js';
import { affine, J } from './range-grammar.js';
import type { RangePlan } from './ranges.js';
import { HOOKS_GLOBAL, INITIALIZED, type Rewriter, SITE_FN } from './rewriter.js';
import type { N } from './syntax.js';

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
  // (`LO` names the loop variable only when it is the variable's value on entry: `./range-grammar.ts` `header`'s `entry`)
  const lo0 = affine(plan.lo, plan.j, plan.j, new Set(), new Map(), plan.bounds).text;
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
    `${step}, ${plan.inclusive ? 1 : plan.until ? 2 : 0}, [${[...plan.ints].join(', ')}], [${entries.join(', ')}])`;
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
