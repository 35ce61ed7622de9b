/**
 * Element reads in optional chains (ECMA-262 §13.3.9), `o?.[k]`, `a?.b[k].c`: the chain from its first `?.` on
 * becomes conditionals that keep its short circuit. Left alone, with a warning (and its location) per element read
 * in it: an optional chain that is itself a callee `(a?.[i][j])()`, a tag or the operand of `delete`, or that calls
 * a method of `super` optionally.
 */

import type * as E from 'estree';
import { read } from './guarded.js';
import type { State } from './rewriter.js';
import { newSite } from './sites.js';
import { LITERAL_TYPES, type N, type Walk } from './syntax.js';
import { temp } from './temporaries.js';
import { emit, type Kept } from './text.js';

/**
 * An optional chain whose element reads at or after its first `?.` are rewritten: from the first `?.` on, the chain
 * becomes conditionals, each optional link `X?.` being `(t = X) == null ? undefined :` followed by the rest of the
 * chain on `t` (so one nullish link still skips all the rest), and each element read a guarded read as elsewhere.
 * An optional call of a method, `o.m?.(...)`, becomes `(f = (t = o).m) == null ? undefined : f.call(t, ...)`. The
 * head, keys and arguments stay in place as operands, in source order, each evaluated once. Links before the first
 * `?.` are ordinary accesses, and a callee `o[k]` is left as it is (as elsewhere). When `restructure` is false (the
 * chain is a callee, a tag or the operand of `delete`, whose reference a conditional would lose) or the method of
 * an optional call is on `super`, the chain stays as it is, with a warning per element read in it.
 */
export function rewriteChain(
  chain: E.ChainExpression & N,
  st: State,
  c: Walk<State>,
  restructure: boolean,
): void {
  const rw = st.rw;
  type Link = (E.MemberExpression | E.SimpleCallExpression) & N;
  const links: Link[] = [];
  let x = chain.expression as E.Node;
  while (x.type === 'MemberExpression' || x.type === 'CallExpression') {
    links.unshift(x as Link);
    x = x.type === 'MemberExpression' ? x.object : x.callee;
  }
  let start = links.findIndex((l) => l.optional);
  // an optional method call keeps its `this`: the chain starts at the method's member link
  if (links[start].type === 'CallExpression' && start > 0 && links[start - 1].type === 'MemberExpression')
    start--;
  const head = (start === 0 ? x : links[start - 1]) as N;
  const isCallee = (j: number) => links[j + 1]?.type === 'CallExpression';
  /** Element reads from `start` on (the last link is not one when the chain is left as it is). */
  const reads = links
    .map((l, j) => (j >= start && l.type === 'MemberExpression' && l.computed && !isCallee(j) ? j : -1))
    .filter((j) => j >= 0 && (restructure || j < links.length - 1));
  if (head.type !== 'Super') c(head, st);
  for (const l of links.slice(start)) {
    if (l.type === 'MemberExpression') {
      if (l.computed) c(l.property, st);
    } else for (const arg of l.arguments) c(arg, st);
  }
  if (reads.length === 0) return;
  if (!restructure || head.type === 'Super') {
    for (const j of reads) {
      const l = links[j].loc.start;
      rw.warnings.push(
        `${rw.options.file}:${l.line}:${l.column + 1}: element access in an optional chain is not instrumented`,
      );
    }
    return;
  }
  type Piece = string | N;
  const out: Piece[] = [];
  let cur: Piece[] = [head];
  let self = ''; // the temporary holding the object of a method called by the next (optional) link
  for (let j = start; j < links.length; j++) {
    const l = links[j];
    if (l.optional) {
      const t = temp(st);
      out.push(`(${t} = `, ...cur, ') == null ? undefined : ');
      cur = l.type === 'CallExpression' && self ? [`${t}.call(${self}`] : [t];
      if (l.type === 'CallExpression' && !self) cur.push('(');
    } else if (l.type === 'CallExpression') cur.push('(');
    if (l.type === 'CallExpression') {
      l.arguments.forEach((arg, n) => {
        cur.push(n > 0 || self ? ', ' : '', arg as N);
      });
      cur.push(')');
      self = '';
      continue;
    }
    const method = links[j + 1]?.type === 'CallExpression' && links[j + 1].optional;
    if (method) {
      self = temp(st);
      cur = [`(${self} = `, ...cur, ')'];
    }
    const key = l.property as N;
    if (!l.computed) cur.push(`.${rw.source.slice(key.start, key.end)}`);
    else if (!reads.includes(j)) cur.push('[', key, ']');
    else {
      const i = newSite(rw, l);
      const pre: Piece[] = [];
      let o: string;
      if (cur.length === 1 && typeof cur[0] === 'string') o = cur[0];
      else {
        o = temp(st);
        pre.push(`${o} = `, ...cur, ', ');
      }
      let k = rw.source.slice(key.start, key.end);
      if (!LITERAL_TYPES.has(key.type)) {
        k = temp(st);
        pre.push(`${k} = (`, key, '), ');
      }
      cur = ['(', ...pre, `${read(rw, o, k, i)})`];
    }
  }
  out.push(...cur);
  const kept: Kept[] = [];
  let text = '';
  for (const piece of out) {
    if (typeof piece === 'string') text += piece;
    else {
      kept.push({ node: piece, prefix: text });
      text = '';
    }
  }
  emit(rw, chain, kept, text);
}
