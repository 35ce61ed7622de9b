/**
 * Workers that start without the ES module loader hooks (issue 24 §2: a worker under the runtime within 50 ms of a
 * plain one). Node 20 starts a loader-hooks thread in each thread that calls node:module `register` (tens of ms per
 * worker: the floor of a worker's start under hooks, docs/BENCHMARKS.md), and has no in-thread hooks
 * (`module.registerHooks`: Node ≥ 22.15). A worker whose entry point Node runs with the CommonJS loader needs none
 * until it loads an ES module: its CommonJS files are instrumented in the thread by `./setup.ts`'s compile hook. So:
 *
 * - the parent decides, as it constructs the Worker ({@link startsCommonJs}), that the worker's entry is CommonJS —
 *   exactly where Node 20's `shouldUseESMLoader` (internal/modules/run_main) says the CommonJS loader runs it: a
 *   `.cjs` file, or a `.js` file whose package scope (the nearest package.json, not past `node_modules`) has no
 *   `"type": "module"`; or `eval` code (a classic script) — and no option in the worker's `execArgv`, the process's
 *   `execArgv` or `NODE_OPTIONS` that makes Node load the entry or the eval code as an ES module (`--import`,
 *   `--loader`, `--experimental-loader`, `--experimental-default-type`, `--input-type`). It hands the verdict to the
 *   worker as `worker_threads` environment data ({@link LAZY_ESM_KEY}); `./register.ts` then registers no hooks there;
 * - in such a worker, `./setup.ts`'s compile hook registers them (once) before anything can load an ES module: before
 *   the CommonJS loader compiles a file that is an ES module (`require(esm)`, on by default in Node ≥ 20.19: the
 *   compile hook is given format `module`) or that fails to compile as CommonJS (module-syntax detection, on by
 *   default in Node ≥ 20.19: `--experimental-detect-module`), before a CommonJS file runs whose source may call
 *   `import()` ({@link mayImport}). Hooks the program registers itself (node:module `register`) before them get the
 *   runtime's instrumented source as when the runtime's were registered at start (test/node/lazy-esm.test.ts).
 *
 * What Node loads after the registration goes through the hooks exactly as in a worker that registered them at start.
 * Code built at run time that calls `import()` is covered when some file compiled before it names `import` (the code
 * string `'return import(x)'` itself, as real-require's `new Function` has it; `importModuleDynamically`, vm's option),
 * `eval` or `Function`. Not covered: an `import()` in code that no compiled file holds as text (read from data, or
 * put together from pieces) run by a code constructor reached without naming it (`(() => {}).constructor`,
 * `globalThis['ev' + 'al']`) before any file naming `import`, `eval` or `Function` was compiled.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  getEnvironmentData,
  isMainThread,
  setEnvironmentData,
  type WorkerOptions,
} from 'node:worker_threads';

/** Environment-data key: true in a worker that starts without the ES module hooks ({@link startsCommonJs}). */
export const LAZY_ESM_KEY = 'goldilocks.lazyEsmHooks';

/** Does this thread start without the ES module hooks (a worker whose parent decided so, see the file header)? */
export const lazyEsmThread = (): boolean => !isMainThread && getEnvironmentData(LAZY_ESM_KEY) === true;

/** Environment-data key: the `NODE_OPTIONS` the process started with, as its main thread saw it before user code. */
const NODE_OPTIONS_KEY = 'goldilocks.nodeOptions';

/**
 * The `NODE_OPTIONS` the process was started with, whose options every thread inherits (not the thread's `env`, which
 * the program may change or replace): the main thread's at its set-up, handed on to every worker.
 */
const nodeOptions: string = isMainThread
  ? (process.env.NODE_OPTIONS ?? '')
  : ((getEnvironmentData(NODE_OPTIONS_KEY) as string | undefined) ?? '');
if (isMainThread) setEnvironmentData(NODE_OPTIONS_KEY, nodeOptions);

/** Node options after which the entry point or the eval code may be loaded as an ES module (Node 20 run_main). */
const ESM_OPTIONS = /(?:^|\s)--(?:import|loader|experimental-loader|experimental-default-type|input-type)\b/;

/**
 * Does Node 20 run the worker `new Worker(filename, options)` starts with the CommonJS loader, by the rules of the file
 * header? `inherited`: the options the worker inherits beside `options.execArgv` (this thread's `execArgv` and the
 * process's `NODE_OPTIONS`). False when in doubt.
 */
export function startsCommonJs(
  filename: string | URL,
  options: WorkerOptions | undefined,
  inherited: readonly string[] = [...process.execArgv, nodeOptions],
): boolean {
  const argv = [...(options?.execArgv ?? []), ...inherited];
  if (argv.some((a) => ESM_OPTIONS.test(a))) return false;
  if (options?.eval) return typeof filename === 'string' && !mayImport(filename);
  let path: string;
  try {
    const href = filename instanceof URL ? filename.href : filename;
    path = realpathSync(href.startsWith('file:') ? fileURLToPath(href) : href);
  } catch {
    return false; // not a file (a data: URL, a missing file): Node's own error, with the hooks as before
  }
  if (path.endsWith('.cjs')) return true;
  return path.endsWith('.js') && packageScopeType(dirname(path)) === 'commonjs';
}

/**
 * The `type` of the package scope of a file in `dir`, as Node's `readPackageScope` finds it: the nearest
 * package.json, not looking past a `node_modules` directory; `commonjs` when there is none or it has no `type`
 * (or another value); undefined when the package.json cannot be read or parsed (Node then throws).
 */
function packageScopeType(dir: string): 'module' | 'commonjs' | undefined {
  for (let d = dir; !d.endsWith(`${sep}node_modules`); d = dirname(d)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(d, 'package.json'), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    }
    if (text !== undefined) {
      try {
        return (JSON.parse(text) as { type?: unknown }).type === 'module' ? 'module' : 'commonjs';
      } catch {
        return undefined;
      }
    }
    if (dirname(d) === d) break;
  }
  return 'commonjs';
}

/**
 * May CommonJS `source` load an ES module other than by `require` (which the compile hook sees)? True when it holds a
 * word that starts with `import` (a dynamic `import()`, vm's `importModuleDynamically`) or the word `eval` or
 * `Function` (code built at run time, which may call `import()`), anywhere, comments and strings included: a
 * superset, whose false positives only register the hooks early.
 */
export const mayImport = (source: string): boolean => /\bimport|\b(?:eval|Function)\b/.test(source);
