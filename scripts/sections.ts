/**
 * Generated sections of a hand-edited Markdown file: a script rewrites only the text between its two marker
 * comments, `<!-- <name>:begin -->` and `<!-- <name>:end -->` (each on a line of its own), and keeps the rest of
 * the file, such as docs/RESULTS.md's hand-written sections, byte for byte.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The two marker lines of section `name`. */
export function markers(name: string): { begin: string; end: string } {
  return { begin: `<!-- ${name}:begin -->`, end: `<!-- ${name}:end -->` };
}

/**
 * `text` with the body of section `name` replaced by `body`; `text` undefined (no file yet) gives the section alone.
 * @param text the whole file, or undefined
 * @param name the section's name (letters, digits, `-`)
 * @param body the new body: Markdown, ending with a newline or not (one is added)
 * @returns the file's new text: what precedes the begin marker and follows the end marker is unchanged
 * @throws Error when `text` lacks either marker, has either more than once, or has them in the wrong order
 */
export function replaceSection(text: string | undefined, name: string, body: string): string {
  const { begin, end } = markers(name);
  const inner = body.endsWith('\n') ? body.slice(0, -1) : body;
  if (text === undefined) return `${begin}\n${inner}\n${end}\n`;
  const lines = text.split('\n');
  const count = (m: string) => lines.filter((line) => line === m).length;
  if (count(begin) !== 1 || count(end) !== 1)
    throw new Error(
      `expected the lines ${begin} and ${end} once each (found ${count(begin)} and ${count(end)}): ` +
        'add them around the part this script rewrites',
    );
  const i = lines.indexOf(begin);
  const j = lines.indexOf(end);
  if (j < i) throw new Error(`${end} comes before ${begin}`);
  return [...lines.slice(0, i + 1), inner, ...lines.slice(j)].join('\n');
}

/** Rewrites section `name` of the file at `file` (created with the section alone if absent). */
export function writeSection(file: string, name: string, body: string): void {
  writeFileSync(file, replaceSection(existsSync(file) ? readFileSync(file, 'utf8') : undefined, name, body));
}
