/**
 * Workers that start without the ES module loader hooks (issue 24 §2: a worker under the runtime within 50 ms of a
 * plain one). Node 20 starts a loader-hooks thread in each thread that calls node:module `register` (tens of ms per
 * worker: the floor of a worker's start under hooks, docs/BENCHMARKS.md), and has no in-thread hooks
 * (`module.registerHooks`: Node ≥ 22.15). A worker needs none as long as everything it loads is instrumented in the
 * thread: its CommonJS files by `./setup.ts`'s compile hook, its ES modules' `file:` sources by `./esm-source.ts`
 * (Node's default `load` reads them through `fs.promises.readFile`, which that module wraps). So:
 *
 * - the parent decides, as it constructs the Worker ({@link startsWithoutHooks}), that the worker may start so: its
 *   entry is a file Node runs with the CommonJS loader (Node 20's `shouldUseESMLoader`, internal/modules/run_main:
 *   a `.cjs` file, or a `.js` file whose package scope, the nearest package.json not past `node_modules`, has no
 *   `"type": "module"`), an ES module of Node's default loader (`.mjs`, or `.js` in a `"type": "module"` scope), or
 *   `eval` code; no option in the worker's `execArgv`, the process's `execArgv` or `NODE_OPTIONS` changes how Node
 *   loads modules ({@link LOADER_OPTIONS}: `--loader`, `--experimental-loader`, `--experimental-default-type`,
 *   `--input-type`, `--experimental-policy` (it checks the raw source), `--experimental-permission`,
 *   `--experimental-network-imports`); and the process's main module is not TypeScript run by the runtime itself (a
 *   `.ts` main with no `--import`, such as tsx's, that runs it: then a `.ts` a worker imports is loaded only by the
 *   runtime's hooks, Node 20 has no type stripping). An `--import` module is loaded after the runtime's `--require`
 *   preload, in the thread, and hooks it registers come after the runtime's (below). It hands the verdict to the
 *   worker as `worker_threads` environment data ({@link LAZY_ESM_KEY}); `./register.ts` then registers no hooks
 *   there;
 * - in such a worker, `./setup.ts` registers them (once) before anything runs that the thread cannot instrument
 *   itself: before the CommonJS loader compiles a file that is an ES module (`require(esm)`, on by default in Node ≥
 *   20.19: the compile hook is given format `module`) or that fails to compile as CommonJS (module-syntax detection),
 *   before a module runs whose source imports a `data:` URL or a TypeScript file written as a literal
 *   (`./esm-source.ts` `importsForHooks`), and before the
 *   program registers hooks of its own (node:module `register`): those then get the runtime's instrumented source, as
 *   when the runtime's were registered at start (test/node/lazy-esm.test.ts).
 *
 * What Node loads after the registration goes through the hooks exactly as in a worker that registered them at start.
 * Not covered: a `data:` module imported by a specifier that is not a literal starting `data:` at the import (a
 * variable, a URL put together from pieces); a TypeScript module imported so fails as under plain Node 20.
 *
 * The main thread decides the same for itself ({@link mainStartsWithoutHooks}): its entry file as the worker's, its
 * own options; never for `-e`/`-p` code, the REPL or stdin. A process then starts no loader-hooks thread at all
 * unless it needs one (thread-stream's suite: a process per test file).
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

/** Environment-data key: true in a worker that starts without the ES module hooks ({@link startsWithoutHooks}). */
export const LAZY_ESM_KEY = 'goldilocks.lazyEsmHooks';

/** Environment-data key: the main thread's verdict ({@link mainStartsWithoutHooks}), found once per process. */
const MAIN_KEY = 'goldilocks.mainWithoutHooks';

/**
 * Does this thread start without the ES module hooks: a worker whose parent decided so, or the main thread by
 * {@link mainStartsWithoutHooks} of the process's own `argv` and `execArgv`, found once per process (the preload and
 * the set-up bundle both ask) and kept as the main thread's `worker_threads` environment data (see the file header)?
 */
export function lazyEsmThread(): boolean {
  if (!isMainThread) return getEnvironmentData(LAZY_ESM_KEY) === true;
  const known = getEnvironmentData(MAIN_KEY);
  if (typeof known === 'boolean') return known;
  const verdict = mainStartsWithoutHooks(process.argv, process.execArgv);
  setEnvironmentData(MAIN_KEY, verdict);
  return verdict;
}

/** Options after which the main thread runs code of no entry file: `-e`, `-p`, `-i` (alone or combined), long forms. */
const NO_ENTRY_OPTION = /^(?:--eval|--print|--interactive)(?:=|$)|^-[a-zA-Z]*[epi][a-zA-Z]*$/;

/**
 * May a process's main thread start without the ES module hooks? When its entry (`argv[1]`) is a file a worker may
 * start from without them ({@link startsWithoutHooks}, under the same options: `execArgv` and `NODE_OPTIONS`), and
 * it runs no `-e`/`-p` code, REPL or stdin (no entry file: then the hooks, as before). Under `node --test`, `argv[1]`
 * is the first test file: the runner runs none of them itself (each runs in a process of its own, which decides anew).
 */
export function mainStartsWithoutHooks(
  argv: readonly string[],
  execArgv: readonly string[],
  inherited?: Inherited,
): boolean {
  const entry = argv[1];
  if (entry === undefined || entry === '-' || execArgv.some((a) => NO_ENTRY_OPTION.test(a))) return false;
  return startsWithoutHooks(entry, { execArgv: [...execArgv] }, inherited);
}

/** Environment-data key: the `NODE_OPTIONS` the process started with, as its main thread saw it before user code. */
const NODE_OPTIONS_KEY = 'goldilocks.nodeOptions';
/** Environment-data key: is the process's main module TypeScript (`.ts`, `.mts`, `.cts`)? */
const MAIN_TS_KEY = 'goldilocks.mainTypeScript';

/**
 * The `NODE_OPTIONS` the process was started with, whose options every thread inherits (not the thread's `env`, which
 * the program may change or replace): the main thread's at its set-up, handed on to every worker.
 */
const nodeOptions: string = isMainThread
  ? (process.env.NODE_OPTIONS ?? '')
  : ((getEnvironmentData(NODE_OPTIONS_KEY) as string | undefined) ?? '');
if (isMainThread) setEnvironmentData(NODE_OPTIONS_KEY, nodeOptions);
/** Is the process's main module TypeScript (the main thread's `argv[1]`, handed on to every worker)? */
const mainTypeScript: boolean = isMainThread
  ? /\.[mc]?ts$/.test(process.argv[1] ?? '')
  : getEnvironmentData(MAIN_TS_KEY) === true;
if (isMainThread) setEnvironmentData(MAIN_TS_KEY, mainTypeScript);

/** Node options that change how modules are loaded or what their sources must be (see the file header). */
const LOADER_OPTIONS =
  /(?:^|\s)--(?:loader|experimental-loader|experimental-default-type|input-type|experimental-policy|experimental-permission|experimental-network-imports)\b/;
/** A module the program preloads as an ES module (a TypeScript loader such as tsx, see the file header). */
const IMPORT_OPTION = /(?:^|\s)--import\b/;

/**
 * Is this Node's default ES module `load` known to read a `file:` module through `fs.promises.readFile`, the call
 * `./esm-source.ts` instruments (Node 20's `internal/modules/esm/load`, `getSource`)? Other majors may read sources
 * otherwise (synchronously), which would leave modules uninstrumented: their workers keep the hooks.
 */
export const IN_THREAD_LOAD = process.versions.node.split('.')[0] === '20';

/** What a worker inherits of its process that {@link startsWithoutHooks} weighs. */
export interface Inherited {
  /** The options beside the worker's `execArgv`: this thread's `execArgv` and the process's `NODE_OPTIONS`. */
  options: readonly string[];
  /** Is the process's main module TypeScript? */
  mainTypeScript: boolean;
  /** Does this Node load ES modules the way `./esm-source.ts` instruments ({@link IN_THREAD_LOAD})? */
  inThreadLoad: boolean;
}

/**
 * May the worker `new Worker(filename, options)` starts run without the ES module hooks, by the rules of the file
 * header? False when in doubt, and on a Node whose loader `./esm-source.ts` was not written for ({@link IN_THREAD_LOAD}).
 */
export function startsWithoutHooks(
  filename: string | URL,
  options: WorkerOptions | undefined,
  inherited: Inherited = {
    options: [...process.execArgv, nodeOptions],
    mainTypeScript,
    inThreadLoad: IN_THREAD_LOAD,
  },
): boolean {
  if (!inherited.inThreadLoad) return false;
  const argv = [...(options?.execArgv ?? []), ...inherited.options];
  if (argv.some((a) => LOADER_OPTIONS.test(a))) return false;
  if (inherited.mainTypeScript && !argv.some((a) => IMPORT_OPTION.test(a))) return false;
  if (options?.eval) return typeof filename === 'string';
  let path: string;
  try {
    const href = filename instanceof URL ? filename.href : filename;
    path = realpathSync(href.startsWith('file:') ? fileURLToPath(href) : href);
  } catch {
    return false; // not a file (a data: URL, a missing file): Node's own error, with the hooks as before
  }
  if (path.endsWith('.cjs') || path.endsWith('.mjs')) return true;
  return path.endsWith('.js') && packageScopeType(dirname(path)) !== undefined;
}

/**
 * The `type` of the package scope of a file in `dir`, as Node's `readPackageScope` finds it: the nearest
 * package.json, not looking past a `node_modules` directory; `none` when there is none or its `type` is neither
 * `module` nor `commonjs`; undefined when the package.json cannot be read or parsed (Node then
 * throws).
 */
export function packageScopeType(dir: string): 'module' | 'commonjs' | 'none' | undefined {
  for (let d = dir; !d.endsWith(`${sep}node_modules`); d = dirname(d)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(d, 'package.json'), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    }
    if (text !== undefined) {
      try {
        const { type } = JSON.parse(text) as { type?: unknown };
        return type === 'module' || type === 'commonjs' ? type : 'none';
      } catch {
        return undefined;
      }
    }
    if (dirname(d) === d) break;
  }
  return 'none';
}
