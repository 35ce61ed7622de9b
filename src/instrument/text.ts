/**
 * Edits that keep every line where it was: the rewriter edits the source in place (magic-string), so the text of
 * every operand stays where it was and **line numbers never change** (only columns to the right of an insertion
 * move). Text that replaces source text keeps the line breaks it replaced.
 */

import type * as E from 'estree';
import type { Rewriter } from './rewriter.js';
import { everyNode, type N } from './syntax.js';

/** The line breaks of source[a, b): what replaced text keeps so that the lines after it stay where they were. */
export const lineBreaks = (rw: Rewriter, a: number, b: number): string =>
  '\n'.repeat(rw.source.slice(a, b).split('\n').length - 1);

/** Replaces source[a, b) (punctuation between operands) keeping its line breaks. */
export function gap(rw: Rewriter, a: number, b: number, text: string, atEnd: boolean): void {
  if (a === b) {
    if (atEnd) rw.ms.appendLeft(a, text);
    else rw.ms.prependRight(a, text);
    return;
  }
  rw.ms.overwrite(a, b, lineBreaks(rw, a, b) + text, { contentOnly: true });
}

/** An operand kept in place by {@link emit}, behind `prefix`. */
export type Kept = { node: N; prefix: string };

/**
 * Emits `node` as a parenthesized sequence: each `kept` operand stays in place behind its prefix, everything else
 * of `node` (punctuation, operands re-emitted by text) is replaced, and `tail` closes the sequence.
 */
export function emit(rw: Rewriter, node: N, kept: Kept[], tail: string): void {
  rw.emitted.add(node.start);
  let pos = node.start;
  let first = true;
  for (const k of kept) {
    gap(rw, pos, k.node.start, (first ? '(' : '') + k.prefix, false);
    pos = k.node.end;
    first = false;
  }
  gap(rw, pos, node.end, `${first ? '(' : ''}${tail})`, true);
}

/** `', '` after a non-empty list of kept operands: what separates the next part of the sequence. */
export const sep = (kept: unknown[]): string => (kept.length ? ', ' : '');

/** The position of the '(' right after call `n`'s callee, or -1 (anything else between them, e.g. a comment). */
export function parenAfter(rw: Rewriter, n: E.SimpleCallExpression & N): number {
  let paren = (n.callee as N).end;
  while (paren < n.end && /\s/.test(rw.source[paren])) paren++;
  return rw.source[paren] === '(' ? paren : -1;
}

/** A line terminator of ECMAScript source (ECMA-262 §12.3). */
export const LINE = /\r\n|[\n\r\u2028\u2029]/g;

/**
 * The text of `node` on one line: its line terminators, which between two tokens are white space (ECMA-262 §12.3:
 * a line terminator inside an expression changes its meaning only where a rule forbids one, before a postfix `++`,
 * `=>`…, which the parse of the expression already passed), each written as a space (an expression a formatter
 * broke over several lines, `g[k] =\n  0.25 * (...)`); null when one is inside a token (a string's line continuation,
 * a template's text) or a comment lies in it (a `//` comment would swallow the rest).
 */
export function oneLine(rw: Rewriter, node: N): string | null {
  const text = rw.source.slice(node.start, node.end);
  LINE.lastIndex = 0;
  if (!LINE.test(text)) return text;
  const c = rw.comments;
  for (let k = 0; k < c.length; k += 2) if (c[k + 1] > node.start && c[k] < node.end) return null;
  let inToken = false;
  everyNode(node, (n) => {
    if (n.type !== 'Literal' && n.type !== 'TemplateElement') return;
    LINE.lastIndex = 0;
    if (LINE.test(rw.source.slice((n as N).start, (n as N).end))) inToken = true;
  });
  return inToken ? null : text.replace(LINE, ' ');
}
