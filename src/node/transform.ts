/**
 * Per-file policy around the rewriter: which files are instrumented, TypeScript type stripping, and warnings.
 *
 * Instrumented: every JavaScript or TypeScript module and CommonJS file of every thread, the program's and
 * `node_modules` alike. Not instrumented: `node:` builtins (they never reach the loaders) and goldilocks's own files
 * (everything under this package's `dist/`). Files acorn cannot parse run as they are (issue 25 §3): when the engine
 * rejects them too, it reports its own SyntaxError, with file, line and caret, as without goldilocks, and nothing
 * more is said; when it accepts them (syntax acorn does not know), a warning names the file, and under
 * `goldilocks run` the file is listed as unchecked in the run's summary and report ({@link UNCHECKED_LIST}).
 *
 * Each rewritten file ends with its inline source map (`../instrument/source-map.ts`; `./register.ts` enables
 * Node's source maps), so that stacks name the program's own lines and columns.
 *
 * TypeScript (`.ts`, `.mts`, `.cts`) is type-stripped with amaro (Node's own stripper, swc compiled to wasm) in
 * strip-only mode: types become whitespace, so lines and columns of the remaining code are exactly those of the
 * source (the rewritten code's map is the map to the TypeScript source: there is no map to compose). Syntax that strip-only mode rejects (enums, namespaces, parameter properties) throws a SyntaxError naming
 * the file, as Node's `--experimental-strip-types` does.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import { instrument } from '../instrument/instrument.js';
import { UNCHECKED_LIST } from './run.js';
import { settings } from './settings.js';

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
 * Does the engine compile `source`? CommonJS (and eval-worker scripts): as Node's CommonJS loader compiles a file,
 * a function of `exports, require, module, __filename, __dirname` (`vm.compileFunction`: nothing runs). ES modules:
 * `node --input-type=module --check` on the source, in a process without goldilocks (`NODE_OPTIONS` dropped); a
 * process start, paid only for a module acorn cannot parse.
 */
function engineAccepts(source: string, module: boolean): boolean {
  if (!module) {
    try {
      compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname']);
      return true;
    } catch {
      return false;
    }
  }
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const check = spawnSync(process.execPath, ['--input-type=module', '--check'], {
    input: source,
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  return check.status === 0;
}

/**
 * Instruments one file's JavaScript (`file` as it is named in site locations: a file URL for ESM, a path for
 * CommonJS). Returns `source` unchanged for goldilocks's own files and for code acorn cannot parse (see the file
 * header: a warning and a line in the run's {@link UNCHECKED_LIST} when the engine accepts it).
 */
export function transformSource(source: string, file: string, module: boolean): string {
  if (isOwn(file)) return source;
  try {
    // a source map where Node can name the file (not `[worker eval]`): frames then name the program's columns
    const sourceMap = file.startsWith('file:') || isAbsolute(file);
    const result = instrument(source, { file, module, sourceMap });
    for (const w of result.warnings) warn(w);
    return result.code;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    if (!engineAccepts(source, module)) return source; // a syntax error of the program's: the engine reports it
    warn(
      `${file} is not instrumented, its accesses are unchecked (the rewriter cannot parse it: ${e.message})`,
    );
    const dir = settings.GOLDILOCKS_REPORT_DIR;
    if (dir) appendFileSync(join(dir, UNCHECKED_LIST), `${file}\n`); // one write(2) of one line: appends never mix
    return source;
  }
}
