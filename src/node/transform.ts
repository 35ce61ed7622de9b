/**
 * Per-file policy around the rewriter: which files are instrumented, TypeScript type stripping, and warnings.
 *
 * Instrumented: every JavaScript or TypeScript module and CommonJS file of every thread, the program's and
 * `node_modules` alike. Not instrumented: `node:` builtins (they never reach the loaders) and goldilocks's own files
 * (everything under this package's `dist/`). Files acorn cannot parse run as they are: the engine then reports its
 * own SyntaxError, with file and line, as without goldilocks (a warning says the file is uninstrumented, in case the
 * engine accepts it).
 *
 * TypeScript (`.ts`, `.mts`, `.cts`) is type-stripped with amaro (Node's own stripper, swc compiled to wasm) in
 * strip-only mode: types become whitespace, so lines and columns of the remaining code are exactly those of the
 * source. Syntax that strip-only mode rejects (enums, namespaces, parameter properties) throws a SyntaxError naming
 * the file, as Node's `--experimental-strip-types` does.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { instrument } from '../instrument/instrument.js';

const require = createRequire(import.meta.url);
const amaro = require('amaro') as {
  transformSync(code: string, options: { mode: 'strip-only' }): { code: string };
};

/** This package's `dist/` directory, as a path ending in the separator. */
const OWN_DIR = fileURLToPath(new URL('../', import.meta.url));

/** True for TypeScript file names or URLs (`.ts`, `.mts`, `.cts`). */
export function isTypeScript(file: string): boolean {
  return /\.[mc]?ts$/.test(file);
}

/** Is `file` (path or file URL) one of goldilocks's own files, never instrumented? */
export function isOwn(file: string): boolean {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  return path.startsWith(OWN_DIR);
}

/**
 * Strips TypeScript types, keeping every line and column.
 * @throws SyntaxError `<file>: <amaro's message with a code frame>` for invalid or non-strippable TypeScript.
 */
export function stripTypes(source: string, file: string): string {
  try {
    return amaro.transformSync(source, { mode: 'strip-only' }).code;
  } catch (e) {
    throw new SyntaxError(
      `${file}: TypeScript type stripping failed:\n${String(e instanceof Error ? e.message : e)}`,
    );
  }
}

/** Writes a goldilocks warning line to stderr. */
export function warn(message: string): void {
  process.stderr.write(`goldilocks: warning: ${message}\n`);
}

/**
 * Instruments one file's JavaScript (`file` as it is named in site locations: a file URL for ESM, a path for
 * CommonJS). Returns `source` unchanged for goldilocks's own files and for code acorn cannot parse.
 */
export function transformSource(source: string, file: string, module: boolean): string {
  if (isOwn(file)) return source;
  try {
    const result = instrument(source, { file, module });
    for (const w of result.warnings) warn(w);
    return result.code;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    warn(`${file} is not instrumented: ${e.message}`);
    return source;
  }
}
