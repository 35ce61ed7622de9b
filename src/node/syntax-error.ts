/**
 * A TypeScript file that type stripping rejects (amaro's strip-only mode, `./transform.ts`: a syntax error, or
 * syntax strip-only mode does not support, such as an enum), reported as Node reports a JavaScript file's syntax
 * error (issue 25 §3): its file and line, the source line with a caret under the column, then
 * `SyntaxError: <message>` — not amaro's code frame, nor a stack of goldilocks's frames.
 *
 * The module is replaced by a module that throws that SyntaxError when it runs: compiled where the program's module
 * is, it fails where the module would, and a program that catches the error (a dynamic import in a `try`) gets a
 * SyntaxError as under Node. The throwing code carries a source map that maps it to the error's position in the
 * file, so Node, whose source maps the runtime enables, prints the file's line and caret above the error, as for an
 * error thrown in any source-mapped file; the error's stack is one frame, at the error's position. As an ES module it exports
 * the names the file's `export` declarations name, so that an importer's named imports link and the error is the
 * one thrown; the modules evaluated before it (its own imports, earlier siblings) have run.
 */
import { createRequire } from 'node:module';

/** magic-string's `SourceMap`, loaded when a module is first rejected: not by every thread at start (issue 24 §2). */
let SourceMap: typeof import('magic-string').SourceMap | undefined;

/** Where amaro's message puts the error: its first message line, and the 1-based line and column, 0 if not found. */
export interface StripError {
  message: string;
  line: number;
  column: number;
}

/**
 * Reads amaro's (swc's) report: `  x <message>`, then a code frame of ` <n> | <source line>` lines where the line
 * of the error is followed by `   : <spaces>^` (tabs of the source shown as 4 spaces), or a span of several lines
 * marked ` <n> | ,-> `.
 */
export function parseStripError(report: string, source: string): StripError {
  const lines = report.split('\n');
  const head = lines.find((l) => /^\s*x /.test(l));
  const message = head ? head.replace(/^\s*x /, '').trim() : report.trim();
  for (let i = 1; i < lines.length; i++) {
    const caret = /^(\s*):(\s*)\^/.exec(lines[i]);
    const code = /^\s*(\d+) \| /.exec(lines[i - 1]);
    if (!caret || !code) continue;
    const line = Number(code[1]);
    const width = caret[0].length - 1 - code[0].length; // rendered columns before the caret
    const text = source.split(/\r?\n/)[line - 1] ?? '';
    let column = 0;
    for (let at = 0; column < text.length && at < width; column++) at += text[column] === '\t' ? 4 : 1;
    return { message, line, column: column + 1 };
  }
  // a span of several lines: ` <n> | ,-> <its first line>`; else the frame's header `,-[<line>:<column>]`
  for (const l of lines) {
    const start = /^\s*(\d+) \| ,-> /.exec(l);
    if (!start) continue;
    const line = Number(start[1]);
    const text = source.split(/\r?\n/)[line - 1] ?? '';
    return { message, line, column: text.length - text.trimStart().length + 1 };
  }
  const header = lines.map((l) => /^\s*,-\[(\d+):(\d+)\]/.exec(l)).find((m) => m !== null);
  return header
    ? { message, line: Number(header[1]), column: Number(header[2]) }
    : { message, line: 0, column: 0 };
}

/** The names an ES module's `export` declarations and clauses name (a scan of the source: it does not parse). */
function exportNames(source: string): string[] {
  const names = new Set<string>();
  const declared =
    /\bexport\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|var|function\*?|class|enum|namespace)\s+([A-Za-z_$][\w$]*)/g;
  for (const m of source.matchAll(declared)) names.add(m[1]);
  for (const m of source.matchAll(/\bexport\s*(?:type\s*)?\{([^}]*)\}/g))
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (name && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default') names.add(name);
    }
  return [...names];
}

/**
 * The JavaScript that replaces `file` (a path, or a file URL for an ES module), whose `source` amaro rejected with
 * `report`: it throws the SyntaxError Node would print (see the file header).
 */
export function throwingModule(report: string, source: string, file: string, module: boolean): string {
  const e = parseStripError(report, source);
  const exports = module
    ? `${exportNames(source)
        .map((n) => `export let ${n};`)
        .join(' ')} export default undefined;\n`
    : '';
  // one frame, the throw's: mapped, it is the error's position (Node prints the file's line and caret from it)
  const body =
    `const l = Error.stackTraceLimit; Error.stackTraceLimit = 1; ` +
    `const e = new SyntaxError(${JSON.stringify(e.message)}); Error.stackTraceLimit = l; throw e;`;
  // the throw, on the last generated line, maps to the error's position
  const segment: [number, number, number, number] = [
    0,
    0,
    Math.max(e.line - 1, 0),
    Math.max(e.column - 1, 0),
  ];
  const mappings = exports ? [[], [segment]] : [[segment]];
  SourceMap ??= (createRequire(import.meta.url)('magic-string') as typeof import('magic-string')).SourceMap;
  const map = new SourceMap({ file, sources: [file], sourcesContent: [source], names: [], mappings });
  return `${exports}${body}\n//# sourceMappingURL=${map.toUrl()}\n`;
}
