/**
 * The source map of a rewritten file (Source Map Revision 3), appended to the code inline
 * (`//# sourceMappingURL=data:...`), so that with Node's source maps enabled (`../node/register.ts`) every frame of
 * a stack in rewritten code names the program's own line and column (issue 25 §1).
 *
 * Node maps a frame's position to the original position of the last segment at or before it, as is, with no offset
 * within the segment, so the text kept from the source gets a segment at every token start — at each word's first
 * character and at every other character, as magic-string's `hires: 'boundary'`. Text the rewriter inserted or
 * replaced gets one segment, mapped to the start of the innermost rewritten node around it (the node of a site,
 * `./sites.ts`): a frame in a guarded access's hook call then names the access's own line and column, as the site
 * does (`current.stack`'s first frame and `current.location` of a race agree). TypeScript needs no map of its own:
 * amaro's strip-only mode keeps every line and column (`../node/transform.ts`).
 *
 * The text is walked through magic-string's chunks (the edited source as a list of original ranges, each with the
 * text inserted before and after it and its replacement, if any).
 */

import { SourceMap } from 'magic-string';
import type { Rewriter } from './rewriter.js';

/** A magic-string chunk (its fields as magic-string 1.x has them). */
interface Chunk {
  start: number;
  end: number;
  intro: string;
  outro: string;
  content: string;
  edited: boolean;
  next: Chunk | null;
}

/** A decoded segment: generated column, source index, original line and column (0-based). */
type Segment = [number, number, number, number];

/** A character of `\w` (a word character: its segment is its word's first character's). */
const isWord = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** The offsets where the lines of `source` start. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The inline source map comment of `rw`'s rewritten code, starting with a line break (see the file header).
 * `file` names the source (a path or file URL).
 */
export function sourceMapComment(rw: Rewriter, file: string): string {
  const source = rw.source;
  const starts = lineStarts(source);
  let line = 0; // the original line of the offset being walked (kept monotonic: chunks are in source order)
  const lineOf = (p: number): number => {
    while (line + 1 < starts.length && starts[line + 1] <= p) line++;
    while (line > 0 && starts[line] > p) line--;
    return line;
  };
  // sites' node ranges by start (outer first on equal starts): laminar, so the innermost around p is a stack's top
  const order = [...Array(rw.ranges.length / 2).keys()].sort(
    (a, b) => rw.ranges[2 * a] - rw.ranges[2 * b] || rw.ranges[2 * b + 1] - rw.ranges[2 * a + 1],
  );
  const open: number[] = [];
  let next = 0;
  /** The offset text inserted at `p` maps to: the start of the innermost site's node around it, else `p`. */
  const anchor = (p: number): number => {
    while (next < order.length && rw.ranges[2 * order[next]] <= p) open.push(order[next++]);
    while (open.length && rw.ranges[2 * open[open.length - 1] + 1] < p) open.pop();
    return open.length ? rw.ranges[2 * open[open.length - 1]] : p;
  };

  const mappings: Segment[][] = [[]];
  let column = 0;
  /** Text mapped to offset `to` (one segment, again after each line break it holds). */
  const inserted = (text: string, to: number): void => {
    if (text === '') return;
    const l = lineOf(to);
    const c = to - starts[l];
    mappings[mappings.length - 1].push([column, 0, l, c]);
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        mappings.push([]);
        column = 0;
        if (i + 1 < text.length) mappings[mappings.length - 1].push([0, 0, l, c]);
      } else column++;
    }
  };
  /** Source text [a, b), kept: a segment at each token start. */
  const kept = (a: number, b: number): void => {
    let l = lineOf(a);
    let word = false;
    let segments = mappings[mappings.length - 1];
    for (let p = a; p < b; p++) {
      const ch = source.charCodeAt(p);
      if (ch === 10) {
        segments = [];
        mappings.push(segments);
        column = 0;
        l++;
        word = false;
        continue;
      }
      const w = isWord(ch);
      if (!(w && word)) segments.push([column, 0, l, p - starts[l]]);
      word = w;
      column++;
    }
    line = l;
  };

  const ms = rw.ms as unknown as { intro: string; firstChunk: Chunk };
  inserted(ms.intro, 0);
  for (let chunk: Chunk | null = ms.firstChunk; chunk !== null; chunk = chunk.next) {
    inserted(chunk.intro, anchor(chunk.start));
    if (chunk.edited) inserted(chunk.content, anchor(chunk.start));
    else kept(chunk.start, chunk.end);
    inserted(chunk.outro, anchor(chunk.end));
  }
  const map = new SourceMap({ file, sources: [file], sourcesContent: [null], names: [], mappings });
  return `\n//# sourceMappingURL=${map.toUrl()}\n`;
}
