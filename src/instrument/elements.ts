/**
 * Element accesses `o[k]`: reads; `=`; every compound operator including `**=`, `<<=`, `>>>=`; `&&=`, `||=`, `??=`
 * with their short circuit (the write happens only when the short circuit does not); prefix and postfix `++`/`--`
 * (ToNumeric, so BigInt arrays work; postfix yields the old numeric value); element targets of destructuring
 * assignment and of `for-in`/`for-of` heads (through `__goldilocks.ref(o, k, m, i, strict).v`, a one-shot reference
 * whose setter writes). Each becomes the guarded access of `./guarded.ts`, behind a member loop guard where
 * `./loops.ts` gives one.
 *
 * `X`, `K` (and the assigned value) are the original operand expressions when re-reading them is unobservable
 * (literals, `this`, local identifiers when nothing after them can run code), otherwise temporaries
 * (`./temporaries.ts`). Evaluation order follows ECMA-262 §13.15.2 (AssignmentExpression), §13.4 (update
 * expressions), §13.3.2 (EvaluatePropertyAccessWithExpressionKey): the object, then the key, then (for compound
 * forms) the read, then the right-hand side, then the write; each operand is evaluated once. ToPropertyKey runs at
 * the read and again at the write of a compound or update form, as V8 does.
 */

import type * as E from 'estree';
import { guard, read, write } from './guarded.js';
import { memberGuardOf } from './loops.js';
import { HOOKS_GLOBAL, isPure, SITE_FN, type State } from './rewriter.js';
import { newSite } from './sites.js';
import { isStable, LITERAL_TYPES, type N } from './syntax.js';
import { temp } from './temporaries.js';
import { emit, gap, type Kept, sep } from './text.js';

/** Operand plan: a temporary when re-reading it later could differ or run code, else its own text. */
const plan = (st: State, operand: N, stable: boolean) =>
  stable
    ? { text: st.rw.source.slice(operand.start, operand.end), temp: null }
    : { text: '', temp: temp(st) };

/** Plans object and key of `member`, given whether everything evaluated after the key is pure. */
function planTarget(st: State, member: E.MemberExpression & N, restPure: boolean) {
  const rw = st.rw;
  const obj = member.object as N;
  const key = member.property as N;
  const keyStable = LITERAL_TYPES.has(key.type) || (restPure && isPure(rw, key));
  const objStable = isStable(obj) || (isPure(rw, obj) && keyStable && isPure(rw, key) && restPure);
  const o = plan(st, obj, objStable);
  const k = plan(st, key, keyStable);
  const kept: Kept[] = [];
  if (o.temp) kept.push({ node: obj, prefix: `${o.temp} = ` });
  if (k.temp) kept.push({ node: key, prefix: `${kept.length ? ', ' : ''}${k.temp} = ` });
  return { x: o.temp ?? o.text, k: k.temp ?? k.text, kept };
}

/** With a member loop guard `b` (see `memberGuardOf`): `access` on object `x` when `x` is `b`, else what follows. */
const plainIf = (b: string | null, x: string, access: string): string =>
  b ? `${x} === ${b} ? ${access} : ` : '';

/**
 * The read of a compound assignment or update of `member` at site `i`, target `t` planned: `head` sets a temporary
 * to the guard (the member loop guard's test first) and temporary `r` to the value read; `store` writes `r` back
 * under the same guard.
 */
function readForWrite(st: State, member: E.MemberExpression, t: { x: string; k: string }, i: number) {
  const rw = st.rw;
  const b = memberGuardOf(st, member);
  const g = temp(st);
  const r = temp(st);
  const head = `${g} = ${b ? `${t.x} !== ${b} && ` : ''}${guard(rw, t.x, i)}, ${r} = ${read(rw, t.x, t.k, i, g)}`;
  return { head, r, store: write(rw, t.x, t.k, r, i, g) };
}

/** A read `o[k]`. */
export function rewriteRead(node: E.MemberExpression & N, st: State): void {
  const i = newSite(st.rw, node, { member: node, st });
  const t = planTarget(st, node, true);
  const fast = plainIf(memberGuardOf(st, node), t.x, `${t.x}[${t.k}]`);
  emit(st.rw, node, t.kept, sep(t.kept) + fast + read(st.rw, t.x, t.k, i));
}

/** An assignment `o[k] = v` or `o[k] op= v` (`member` its target). */
export function rewriteAssign(
  node: E.AssignmentExpression & N,
  member: E.MemberExpression & N,
  st: State,
): void {
  const rw = st.rw;
  const i = newSite(rw, member, { member, st });
  const value = node.right as N;
  const valuePure = isPure(rw, value);
  // A compound form reads o[k] (which may run a getter) before its write: only stable operands are re-read.
  const t = planTarget(st, member, valuePure && node.operator === '=');
  if (node.operator === '=') {
    const b = memberGuardOf(st, member);
    const v = plan(st, value, valuePure);
    if (v.temp) t.kept.push({ node: value, prefix: `${sep(t.kept)}${v.temp} = ` });
    const x = v.temp ?? v.text;
    emit(
      rw,
      node,
      t.kept,
      sep(t.kept) + plainIf(b, t.x, `${t.x}[${t.k}] = ${x}`) + write(rw, t.x, t.k, x, i),
    );
    return;
  }
  const { head, r, store } = readForWrite(st, member, t, i);
  const op = node.operator.slice(0, -1);
  const logical = op === '&&' || op === '||' || op === '??';
  if (valuePure) {
    const v = rw.source.slice(value.start, value.end);
    const body = logical ? `${r} ${op} (${r} = ${v}, ${store})` : `${r} = ${r} ${op} ${v}, ${store}`;
    emit(rw, node, t.kept, `${sep(t.kept)}${head}, ${body}`);
    return;
  }
  const open = logical ? `${r} ${op} (${r} = (` : `${r} = ${r} ${op} (`;
  t.kept.push({ node: value, prefix: `${sep(t.kept)}${head}, ${open}` });
  emit(rw, node, t.kept, logical ? `), ${store})` : `), ${store}`);
}

/** An update `++o[k]`, `o[k]--`... (`member` its operand). */
export function rewriteUpdate(node: E.UpdateExpression & N, member: E.MemberExpression & N, st: State): void {
  const rw = st.rw;
  const i = newSite(rw, member, { member, st });
  const t = planTarget(st, member, false);
  const { head, r, store } = readForWrite(st, member, t, i);
  if (node.prefix) {
    emit(rw, node, t.kept, `${sep(t.kept)}${head}, ${node.operator}${r}, ${store}`);
    return;
  }
  const old = temp(st);
  emit(rw, node, t.kept, `${sep(t.kept)}${head}, ${old} = ${r}${node.operator}, ${store}, ${old}`);
}

/** A destructuring or for-in/of target `o[k]`: `__goldilocks.ref(o, k, __gl$m, i, strict).v`. */
export function rewriteTarget(member: E.MemberExpression & N, st: State): void {
  const rw = st.rw;
  const i = newSite(rw, member);
  const obj = member.object as N;
  const key = member.property as N;
  gap(rw, member.start, obj.start, `${HOOKS_GLOBAL}.ref(`, false);
  gap(rw, obj.end, key.start, ', ', false);
  gap(rw, key.end, member.end, `, ${SITE_FN}, ${i}, ${st.strict}).v`, true);
}
