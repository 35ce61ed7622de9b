/**
 * `Atomics` calls: `Atomics.add(args)` (the global `Atomics`, a name of ATOMIC_OPS, not optional) becomes
 * `__goldilocks.atomics.add(__gl$m, i, args)`: the same call, with its static site (`atomicsRest` for a call with a
 * spread or more than ATOMIC_ARITY arguments), so that the runtime need not capture a stack to name it
 * (`Hooks.atomics`, `../hooks/contract.ts`).
 */

import type * as E from 'estree';
import { ATOMIC_ARITY, ATOMIC_OPS } from '../hooks/names.js';
import { HOOKS_GLOBAL, isLocal, type Rewriter, SITE_FN } from './rewriter.js';
import { newSite } from './sites.js';
import { type N, namedMethodCall } from './syntax.js';
import { lineBreaks, parenAfter } from './text.js';

/** Rewrites call `n` when it is such an `Atomics` call; returns whether it was. */
export function atomicsCall(rw: Rewriter, n: E.SimpleCallExpression & N): boolean {
  const call = namedMethodCall(n, ATOMIC_OPS);
  if (call === null || call.object.name !== 'Atomics' || isLocal(rw, call.object)) return false;
  const paren = parenAfter(rw, n);
  if (paren < 0) return false;
  const i = newSite(rw, n);
  const { start, end } = n.callee as N;
  const fixed =
    n.arguments.length <= ATOMIC_ARITY && n.arguments.every((arg) => arg.type !== 'SpreadElement');
  // `Atomics\n.add`: its line breaks stay
  const name = `${HOOKS_GLOBAL}.atomics${fixed ? '' : 'Rest'}.${call.method}`;
  rw.ms.overwrite(start, end, name + lineBreaks(rw, start, end));
  rw.ms.appendLeft(paren + 1, `${SITE_FN}, ${i}${n.arguments.length ? ', ' : ''}`);
  return true;
}
