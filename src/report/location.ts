/**
 * The source locations of race records as text, taken apart for the reports that need their parts (suppressions,
 * SARIF, the HTML page): `file:line:column` (live, the file a path or a `file:` URL), a trace's `file:line`, or
 * RoadRunner's `File.java:method:line`; and the lines of a V8 stack (`at f (file:1:2)`).
 */
import { fileURLToPath } from 'node:url';

/** A location's parts. */
export interface Location {
  /** The file: a path (a `file:` URL converted), or the text itself when it names no line. */
  file: string;
  /** 1-based line, when the text has one. */
  line?: number;
  /** 1-based column, when the text has one. */
  column?: number;
  /** RoadRunner's method (`File.java:method:line`). */
  method?: string;
}

/** The parts of location `text` (see the file header). */
export function parseLocation(text: string): Location {
  const m = /^(.*?):(\d+)(?::(\d+))?$/.exec(text);
  if (!m || m[1] === '') return { file: text };
  let file = m[1];
  let method: string | undefined;
  if (file.startsWith('file:'))
    try {
      file = fileURLToPath(file);
    } catch {
      // not a file URL after all: kept as written
    }
  else {
    const rr = /^([^:]+):([^:\d][^:]*)$/.exec(file);
    if (rr) [file, method] = [rr[1], rr[2]];
  }
  return {
    file,
    line: Number(m[2]),
    ...(m[3] !== undefined && Number(m[3]) > 0 ? { column: Number(m[3]) } : {}),
    ...(method ? { method } : {}),
  };
}

/** A V8 stack line (`at f (loc)`, `at loc`, `at async f (loc)`) as its function and location; else undefined. */
export function parseStackLine(line: string): { fn?: string; location: string } | undefined {
  const m = /^\s*at (?:async )?(?:(.*?) \((.*)\)|(.*))$/.exec(line);
  if (!m) return undefined;
  return m[1] ? { fn: m[1], location: m[2] } : { location: m[3] };
}
