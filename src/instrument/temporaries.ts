/**
 * Temporaries: per-function (per activation) variables `__gl$1, __gl$2, ...` that hold an operand evaluated once
 * where re-reading it could differ or run code, and the loop guards' values. They are declared with `var` at the end
 * of the enclosing function body; an arrow's expression body becomes `{return (...);var ...}`; class field
 * initializers and parameter defaults are wrapped in an arrow called in place, since a body `var` is not visible
 * there. The program's own are declared with the site caches in the trailer (`./sites.ts`).
 */

import type * as E from 'estree';
import { RESERVED_PREFIX, type Rewriter, type Scope, type State } from './rewriter.js';
import type { N } from './syntax.js';

/** A new temporary of `scope`. */
export const tempIn = (scope: Scope): string => `${RESERVED_PREFIX}${++scope.temps}`;

/** A new temporary of the activation the walk is in. */
export const temp = (st: State): string => tempIn(st.scope);

/** The names of the first `count` temporaries of a scope. */
export const tempNames = (count: number): string[] =>
  Array.from({ length: count }, (_, j) => `${RESERVED_PREFIX}${j + 1}`);

/** Declares `scope`'s temporaries, as its kind says (see {@link Scope}); the program's are left to the trailer. */
function closeScope(rw: Rewriter, scope: Scope): void {
  if (scope.temps === 0) return;
  const names = tempNames(scope.temps).join(', ');
  const n = scope.node;
  if (scope.kind === 'body') rw.ms.appendLeft(n.end - 1, `;var ${names};`);
  else if (scope.kind === 'arrow') {
    rw.ms.prependRight(n.start, '{return (');
    rw.ms.appendLeft(n.end, `);var ${names}}`);
  } else if (scope.kind === 'wrap') {
    rw.ms.prependRight(n.start, '(() => {return (');
    rw.ms.appendLeft(n.end, `);var ${names}})()`);
  }
}

/** Walks code with its own temporaries; `fn` is the function whose body it is (else null, see {@link State}). */
export function inScope(
  rw: Rewriter,
  kind: Scope['kind'],
  node: E.Node,
  strict: boolean,
  f: (st: State) => void,
  fn: N | null = null,
): void {
  const scope: Scope = { temps: 0, kind, node: node as N };
  f({ rw, scope, strict, loop: null, fn });
  closeScope(rw, scope);
}
