/**
 * Sites: every rewritten access or call gets a site, its index `i` in the module's table of 1-based lines and
 * 1-based columns (UTF-16 code units, as V8 counts them) of the original source. `__gl$m` is a function declaration
 * appended to the module (hoisted, so usable before any other code runs, as in an import cycle); calling it returns
 * `[file, [line, column, ...]]` for registration (`Hooks.siteId`, `../hooks/contract.ts`). The module's own
 * temporaries and its sites' cache variables (`./guarded.ts`) are declared with it, as `var`s of its top level.
 */

import type * as E from 'estree';
import { INITIALIZED, type Rewriter, type Scope, SITE_CACHE, SITE_FN, type State } from './rewriter.js';
import { type N, unparen } from './syntax.js';
import { tempNames } from './temporaries.js';

/** A new site at `n`; `element` is the access when it is an element read or write, with state `st`. */
export function newSite(rw: Rewriter, n: N, element?: { member: E.MemberExpression; st: State }): number {
  rw.locs.push(n.loc.start.line, n.loc.start.column + 1);
  rw.ranges.push(n.start, n.end);
  const object = element === undefined ? null : unparen(element.member.object);
  rw.notes.push({
    pos: n.start,
    object: object?.type === 'Identifier' ? (object as E.Identifier & N) : null,
    loop: element?.st.loop ?? null,
  });
  return rw.locs.length / 2 - 1;
}

/**
 * Appends the trailer: the declarations of the program's temporaries (`top` its scope) and of the site caches, then
 * the site function `__gl$m`.
 */
export function appendSiteFunction(rw: Rewriter, top: Scope): void {
  const temps = tempNames(top.temps);
  for (const i of rw.cached) temps.push(`${SITE_CACHE}${i}`);
  if (rw.initializers.size > 0) temps.push(INITIALIZED);
  const decl = temps.length ? `var ${temps.join(', ')};` : '';
  rw.ms.append(
    `\n;${decl}function ${SITE_FN}() { return [${JSON.stringify(rw.options.file)}, [${rw.locs.join(',')}]]; }\n`,
  );
}
