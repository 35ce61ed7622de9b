/**
 * Allocations of shared memory: `new SharedArrayBuffer(...)` and `new WebAssembly.Memory(...)` (the global
 * constructors, by their global names) become `__goldilocks.allocated(__gl$m, i, new SharedArrayBuffer(...))`, a
 * site at the `new`: the runtime names that site as where a racing buffer was made (`Runtime.allocated`,
 * `../hooks/contract.ts`). The expression stays in place, wrapped by the hook, which returns its value.
 */

import type * as E from 'estree';
import { HOOKS_GLOBAL, isLocal, type Rewriter, SITE_FN } from './rewriter.js';
import { newSite } from './sites.js';
import type { N } from './syntax.js';

/** Is `n`'s callee the global `SharedArrayBuffer` or `WebAssembly.Memory` (not a binding of the program's)? */
function allocates(rw: Rewriter, n: E.NewExpression): boolean {
  const c = n.callee;
  if (c.type === 'Identifier') return c.name === 'SharedArrayBuffer' && !isLocal(rw, c);
  return (
    c.type === 'MemberExpression' &&
    !c.computed &&
    c.object.type === 'Identifier' &&
    c.object.name === 'WebAssembly' &&
    !isLocal(rw, c.object) &&
    c.property.type === 'Identifier' &&
    c.property.name === 'Memory'
  );
}

/** Wraps `n` with the `allocated` hook when it constructs shared memory (see the file header). */
export function allocation(rw: Rewriter, n: E.NewExpression & N): void {
  if (!allocates(rw, n)) return;
  const i = newSite(rw, n);
  rw.ms.prependLeft(n.start, `${HOOKS_GLOBAL}.allocated(${SITE_FN}, ${i}, `);
  rw.ms.appendRight(n.end, ')');
}
