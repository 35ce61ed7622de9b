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
 *
 * Rewrites are kept in the transform cache of `./cache.ts` (`GOLDILOCKS_CACHE`). The rewriter (acorn and the rest) and
 * amaro are loaded on first use, not with this module: a thread whose modules all come from the cache, or that
 * strips no TypeScript, never loads them (they were most of a worker's start-up under the runtime).
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import type { InstrumentOptions, InstrumentResult } from '../instrument/instrument.js';
import { cacheKey, cacheSetup, readCached, writeCached } from './cache.js';
import { settings } from './settings.js';
import { throwingModule } from './syntax-error.js';
import { UNCHECKED_LIST } from './unchecked.js';

const require = createRequire(import.meta.url);
interface Amaro {
  transformSync(code: string, options: { mode: 'strip-only' }): { code: string };
}
let amaro: Amaro | undefined;
let instrumenter: ((source: string, options: InstrumentOptions) => InstrumentResult) | undefined;
/**
 * Set while the rewriter or amaro is being loaded: the files their loading compiles (their own dependencies, acorn,
 * eslint-scope, ...) pass through {@link transformSource} unchanged, as they did when they were loaded before the
 * CommonJS loader was patched (and the rewriter is not asked to rewrite its own modules while it loads).
 */
let loadingTools = false;

/** Is the rewriter or amaro being loaded (amaro compiles its WebAssembly then: not the program's)? */
export const loadingTool = (): boolean => loadingTools;

/** `require(id)` with {@link loadingTools} set. */
function requireTool<T>(id: string): T {
  loadingTools = true;
  try {
    return require(id) as T;
  } finally {
    loadingTools = false;
  }
}

/** The rewriter, loaded on first use. */
const instrument = (source: string, options: InstrumentOptions): InstrumentResult => {
  instrumenter ??= requireTool<typeof import('../instrument/instrument.js')>(
    '../instrument/instrument.js',
  ).instrument;
  return instrumenter(source, options);
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
 * Strips TypeScript types, keeping every line and column. Invalid or non-strippable TypeScript becomes a module
 * (an ES module when `module`) that throws the SyntaxError Node would report (`./syntax-error.ts`).
 */
export function stripTypes(source: string, file: string, module = false): string {
  let report: string;
  try {
    amaro ??= requireTool<Amaro>('amaro');
    return amaro.transformSync(source, { mode: 'strip-only' }).code;
  } catch (e) {
    report = String(e instanceof Error ? e.message : e);
  }
  return throwingModule(report, source, file, module);
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
  // child_process loaded here, for the rare module the rewriter rejects: not by every thread at start
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const check = spawnSync(process.execPath, ['--input-type=module', '--check'], {
    input: source,
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  return check.status === 0;
}

/** The source {@link transformSource} last returned as the engine's own syntax error to report. */
let rejected: string | undefined;

/** Is `source` what {@link transformSource} just passed on because the engine rejects it too (a syntax error)? */
export function rejectedByEngine(source: string): boolean {
  return source === rejected;
}

/**
 * Instruments one file's JavaScript (`file` as it is named in site locations: a file URL for ESM, a path for
 * CommonJS). Returns `source` unchanged for goldilocks's own files and the rewriter's dependencies (while
 * they load), and for code acorn cannot parse (see the file
 * header: a warning and a line in the run's {@link UNCHECKED_LIST} when the engine accepts it). `commonjs`: a
 * CommonJS module's code, which Node's loader runs inside its wrapper function (`InstrumentOptions.commonjs`).
 */
export function transformSource(source: string, file: string, module: boolean, commonjs = false): string {
  if (isOwn(file) || loadingTools) return source;
  const cache = cacheSetup().dir;
  // a source map where Node can name the file (not `[worker eval]`): frames then name the program's columns
  const sourceMap = file.startsWith('file:') || isAbsolute(file);
  const options: InstrumentOptions = { file, module, sourceMap, ...(commonjs ? { commonjs } : {}) };
  const key = cache === null ? '' : cacheKey(source, options);
  const hit = cache === null ? undefined : readCached(cache, key);
  if (hit !== undefined) {
    for (const w of hit.warnings) warn(w);
    return hit.code;
  }
  try {
    const result = instrument(source, options);
    for (const w of result.warnings) warn(w);
    if (cache !== null) writeCached(cache, key, { code: result.code, warnings: result.warnings });
    return result.code;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    if (!engineAccepts(source, module)) {
      rejected = source;
      return source; // a syntax error of the program's: the engine reports it
    }
    warn(
      `${file} is not instrumented, its accesses are unchecked (the rewriter cannot parse it: ${e.message})`,
    );
    const dir = settings.GOLDILOCKS_REPORT_DIR;
    if (dir) appendFileSync(join(dir, UNCHECKED_LIST), `${file}\n`); // one write(2) of one line: appends never mix
    return source;
  }
}
