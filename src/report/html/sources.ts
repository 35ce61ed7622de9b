/**
 * The source lines of a race's accesses for the HTML page (`./page.ts`): the line of a location `file:line[:column]`
 * (a path, a file URL, or a trace's `File.java:method:line`) with two lines around it, read from the file — a
 * relative path from each of the given directories in turn — or why it could not be read.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseLocation } from '../location.js';

/** The lines around an access, or why there are none. */
export interface SourceExcerpt {
  /** The file as named by the location ('' when the location names none). */
  file: string;
  /** 1-based line of the access (0 when the location has none). */
  line: number;
  /** 1-based column, when the location has one. */
  column?: number;
  /** The lines shown, numbered, the access's among them. */
  lines: { n: number; text: string }[];
  /** Why no lines are shown: no location, no line, the file not found or not readable. */
  unreadable?: string;
}

/** Lines shown before and after the access's. */
const AROUND = 2;

/** Reads source files once each: `goldilocks check`'s locations repeat. */
export class SourceReader {
  private readonly files = new Map<string, string[] | string>();

  /** @param dirs directories a relative path is tried in, in order (the trace's directory, the working one). */
  constructor(private readonly dirs: readonly string[]) {}

  /** The excerpt of `location`. */
  excerpt(location: string): SourceExcerpt {
    if (location === '')
      return { file: '', line: 0, lines: [], unreadable: 'the access has no source location' };
    const { file, line, column } = parseLocation(location);
    if (line === undefined) return { file, line: 0, lines: [], unreadable: 'the location names no line' };
    const out: SourceExcerpt = { file, line, lines: [], ...(column ? { column } : {}) };
    const text = this.read(file);
    if (typeof text === 'string') return { ...out, unreadable: text };
    if (line < 1 || line > text.length)
      return { ...out, unreadable: `${file} has ${text.length} lines, not line ${line}` };
    for (let n = Math.max(1, line - AROUND); n <= Math.min(text.length, line + AROUND); n++)
      out.lines.push({ n, text: text[n - 1] });
    return out;
  }

  /** The lines of `file`, or why it cannot be read. */
  private read(file: string): string[] | string {
    let text = this.files.get(file);
    if (text !== undefined) return text;
    const candidates = path.isAbsolute(file) ? [file] : this.dirs.map((d) => path.resolve(d, file));
    text = `source not readable: ${file} (not found${path.isAbsolute(file) ? '' : ` in ${this.dirs.join(', ')}`})`;
    for (const c of candidates) {
      try {
        text = readFileSync(c, 'utf8').split(/\r?\n/);
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR')
          text = `source not readable: ${c} (${code ?? String(e)})`;
      }
    }
    this.files.set(file, text);
    return text;
  }
}
