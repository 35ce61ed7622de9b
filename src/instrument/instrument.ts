/**
 * Load-time rewriting of element accesses `o[k]` so that every read and write of shared memory goes through the
 * hooks of `../hooks/contract.ts`.
 *
 * Parser: acorn (ESTree, `preserveParens` so parenthesized operands keep exact ranges); edits: magic-string, in place,
 * so the text of every operand stays where it was and **line numbers never change** (only columns to the right of an
 * inserted guard move; the site table records the original 1-based line and 1-based column, in UTF-16 code units as
 * V8 counts them).
 *
 * The rewriter, acorn-style, one concern per file, each a set of functions of the per-file {@link Rewriter} and the
 * walk's `State` (`./rewriter.ts`):
 * - `./visitors.ts`: the walk, which sends each node to the file of its concern;
 * - `./elements.ts`: element reads, writes, compound assignments, updates and assignment targets, each becoming the
 *   guarded access of `./guarded.ts`;
 * - `./loops.ts`: loop guards and member loop guards, which let a loop over memory that is not shared skip the
 *   per-access guard, on the scope analysis of `./scope.ts`;
 * - `./chain.ts`: element reads in optional chains;
 * - `./copies.ts`: the copies of a view the engine makes without a call (`new C(x)`, object spread and patterns);
 * - `./allocations.ts`: `new SharedArrayBuffer(...)` and `new WebAssembly.Memory(...)`, whose site a race report names;
 * - `./methods.ts` and `./atomics.ts`: method calls and `Atomics` calls that carry their site;
 * - `./source-map.ts`: the rewritten code's inline source map, back to the program's lines and columns;
 * - `./sites.ts`: the site table and the site function `__gl$m`; `./temporaries.ts`: temporaries and where they are
 *   declared; `./text.ts`: edits that keep line breaks; `./syntax.ts`: questions about nodes.
 */

import { type InstrumentOptions, Rewriter, type Scope } from './rewriter.js';
import { appendSiteFunction } from './sites.js';
import { sourceMapComment } from './source-map.js';
import { hasUseStrict, walk } from './syntax.js';
import { visitors } from './visitors.js';

export { HOOKS_GLOBAL, type InstrumentOptions, RESERVED_PREFIX } from './rewriter.js';

/** The rewritten code, how many sites it registers, and one warning per access left uninstrumented. */
export interface InstrumentResult {
  code: string;
  sites: number;
  warnings: string[];
}

/**
 * Rewrites `source` (a whole module or script) as described in this file's header.
 * @throws SyntaxError (acorn's, with `loc`) when `source` does not parse; the caller passes the original source on so
 * that the engine reports the error itself.
 */
export function instrument(source: string, options: InstrumentOptions): InstrumentResult {
  const rw = new Rewriter(source, options);
  const { program } = rw;
  const top: Scope = { temps: 0, kind: 'program', node: program };
  const strict = options.module || hasUseStrict(program.body);
  walk(program, { rw, scope: top, strict, loop: null, fn: program }, visitors);
  if (rw.locs.length === 0) return { code: source, sites: 0, warnings: rw.warnings };
  appendSiteFunction(rw, top);
  const map = options.sourceMap ? sourceMapComment(rw, options.file) : '';
  return { code: rw.ms.toString() + map, sites: rw.locs.length / 2, warnings: rw.warnings };
}
