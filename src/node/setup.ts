/**
 * One thread's set-up under the runtime, run by `./register.ts` in every thread that runs user code while Node starts
 * the thread's loader-hooks thread for the ESM loader hooks of `./loader.ts` (see its header): {@link setUpThread}
 * instruments every module of the thread and installs the runtime before any user code runs. In this order:
 * 1. the runtime is loaded, made with this thread's hooks (`../hooks/`), and installed, which publishes the hooks
 *    at `globalThis.__goldilocks`, once: the module named by `GOLDILOCKS_RUNTIME` (path or file URL) or else
 *    the default runtime (`../live/runtime.ts`), whose default export is a `RuntimeFactory`. This is the single place
 *    where the runtime also patches globals (Atomics, DataView, bulk methods) before user code;
 * 2. CommonJS: `Module.prototype._compile` instruments each file's source, and `.ts`/`.cts`/`.mts` files are type-stripped
 *    (an `.mts` entry point, which Node 20 gives to the CommonJS loader, then goes to the ES module loader by Node's
 *    module-syntax detection, as an ES `.ts` does; an `.mts` without import or export runs as CommonJS);
 * 3. `worker_threads.Worker` is replaced by a subclass so that `new Worker(code, { eval: true })` imports
 *    `./register.js` and then runs the instrumented code (Node 20 runs no preload module in eval workers), a worker
 *    given explicit `execArgv` or `env` still gets `--require <register.js>` (hidden from its `process.execArgv`); the
 *    settings (`GOLDILOCKS_*`) reach every worker through `./settings.ts`, not its env. Workers otherwise inherit the
 *    preload from the parent's execArgv, and child processes from `NODE_OPTIONS` (as set by `./run.ts`). Each worker
 *    is told whether it starts without the ES module hooks (`./lazy-esm.ts`); in such a worker, its ES modules
 *    are instrumented in the thread (`./esm-source.ts`) and the hooks are registered only where that cannot be done;
 * 4. code that cannot be instrumented is reported on stderr once per thread: native addons (`process.dlopen`) and
 *    WebAssembly (`WebAssembly.compile`, `compileStreaming`, `instantiate`, `instantiateStreaming`, `new Module`).
 * Before them, Node's source maps are enabled (`process.setSourceMapsEnabled`, as `--enable-source-maps`): every
 * rewritten file carries its inline map (`./transform.ts`), so stacks name the program's lines and columns, not the
 * rewritten code's. (A file that is not rewritten keeps its own `sourceMappingURL`, which Node then follows too.)
 *
 * The build bundles this module, the hooks, `./transform.ts` and the default runtime into one script
 * (`scripts/bundle.ts`), loaded with V8's code cache (`./code-cache.ts`).
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire, syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';
import type { Runtime, RuntimeFactory } from '../hooks/contract.js';
import { installRuntime } from '../hooks/install.js';
import { disguise } from '../hooks/native.js';
import { threadHooks } from '../hooks/thread.js';
import { importsForHooks, loadEsmInThread } from './esm-source.js';
import { LAZY_ESM_KEY, lazyEsmThread, startsWithoutHooks } from './lazy-esm.js';
import { settings } from './settings.js';
import { isOwn, loadingTool, rejectedByEngine, stripTypes, transformSource, warn } from './transform.js';

/** `./register.js`, the preload every thread loads (by file URL and path): workers are given it. */
const REGISTER_URL = new URL('./register.js', import.meta.url).href;
const REGISTER_PATH = fileURLToPath(REGISTER_URL);
const require = createRequire(REGISTER_URL);
/** `./loader.js`, the ES module loader hooks, registered late in a worker that starts without them (`./lazy-esm.ts`). */
const LOADER_URL = new URL('./loader.js', REGISTER_URL).href;
/** The CommonJS exports object of worker_threads, whose `Worker` is replaced (then synced to its ESM namespace). */
const threads = require('node:worker_threads') as typeof import('node:worker_threads');

/**
 * Step 1: the hooks, and the runtime `GOLDILOCKS_RUNTIME` names (a path or file URL; else `defaultRuntime()`), loaded
 * and installed. @returns the runtime.
 */
function loadRuntime(defaultRuntime: () => RuntimeFactory): Runtime {
  const hooks = threadHooks();
  const spec = settings.GOLDILOCKS_RUNTIME;
  const factory = spec
    ? (require(spec.startsWith('file:') ? fileURLToPath(spec) : resolve(spec)).default as RuntimeFactory)
    : defaultRuntime();
  const runtime = factory(hooks);
  installRuntime(runtime);
  return runtime;
}

/**
 * A worker started without the ES module hooks (`./lazy-esm.ts`): its ES modules are instrumented in the thread
 * (`./esm-source.ts`), and the hooks are registered, once, where it cannot (see `./lazy-esm.ts`), and before the
 * program registers hooks of its own, which then come after the runtime's as when these were registered at start.
 * @returns the function that registers them (blocking while Node starts this thread's loader-hooks thread).
 */
function lazyEsmHooks(): () => void {
  const register = Module.register;
  let registered = false;
  const registerHooks = (): void => {
    if (registered) return;
    registered = true;
    register(LOADER_URL);
  };
  Module.register = function (this: unknown, ...args: Parameters<typeof register>) {
    registerHooks();
    return Reflect.apply(register, this, args);
  } as typeof register;
  Object.defineProperty(Module.register, 'name', { value: register.name });
  loadEsmInThread(registerHooks);
  return registerHooks;
}

/**
 * Step 2: CommonJS sources are instrumented as they are compiled; `.ts`/`.cts`/`.mts` files are type-stripped first.
 * With `registerHooks` (a worker started without the ES module hooks, {@link lazyEsmHooks}), the hooks are
 * registered before a file is compiled that is an ES module (format `module`: `require(esm)`), that is not CommonJS
 * (module-syntax detection) or that imports a `data:` URL or a TypeScript file (`./esm-source.ts` `importsForHooks`).
 */
function instrumentCommonJs(registerHooks: (() => void) | undefined): void {
  interface CjsModule {
    _compile(content: string, filename: string, format?: string): unknown;
  }
  const cjs = Module as unknown as {
    prototype: CjsModule;
    _extensions: Record<string, (module: CjsModule, filename: string) => void>;
  };
  const compile = cjs.prototype._compile;
  cjs.prototype._compile = function (this: CjsModule, content: string, filename: string, format?: string) {
    const code = transformSource(content, filename, false, format !== 'module'); // CommonJS: run in Node's wrapper
    // the rewriter's own modules (ES modules in dist/, loaded by require on first use) need no hooks
    const own = loadingTool() || isOwn(filename);
    if (registerHooks && !own && (format === 'module' || rejectedByEngine(code) || importsForHooks(content)))
      registerHooks();
    // the program runs outside any catch: an error rethrown here would be printed with this frame's source line
    if (!rejectedByEngine(code)) return compile.call(this, code, filename);
    try {
      return compile.call(this, code, filename);
    } catch (e) {
      // the program's own syntax error (the source passed on as it was): reported as node reports it, without this frame
      if (e instanceof SyntaxError) dropOwnFrames(e);
      throw e;
    }
  };
  for (const ext of ['.ts', '.cts', '.mts']) {
    cjs._extensions[ext] = (module, filename) =>
      module._compile(stripTypes(readFileSync(filename, 'utf8'), filename), filename);
  }
}

/** This package's `dist/` directory (the directory of `../`), as a file URL: the frames of goldilocks's own code. */
const OWN_FRAMES = new URL('../', REGISTER_URL).href;

/** Removes the stack lines of goldilocks's own functions from `e.stack` (where it can be written). */
function dropOwnFrames(e: Error): void {
  try {
    e.stack = e.stack
      ?.split('\n')
      .filter((l) => !(l.startsWith('    at ') && l.includes(OWN_FRAMES)))
      .join('\n');
  } catch {
    // a frozen error keeps its stack
  }
}

/**
 * Environment-data key: whether the worker being spawned got `--require <this file>` appended to its explicit
 * `execArgv`. The worker then removes it from its `process.execArgv`, which shows the program what it asked for.
 */
const PRELOAD_ADDED = 'goldilocks.preloadAdded';

/** Step 3: workers run instrumented code, eval workers included, and are announced to the runtime (fork). */
function instrumentWorkers(runtime: Runtime): void {
  const argv = process.execArgv;
  if (
    !threads.isMainThread &&
    threads.getEnvironmentData(PRELOAD_ADDED) === true &&
    argv.at(-2) === '--require' &&
    argv.at(-1) === REGISTER_PATH
  )
    argv.splice(-2, 2);

  const OriginalWorker = threads.Worker;
  class Worker extends OriginalWorker {
    constructor(filename: string | URL, options?: WorkerOptions) {
      let code = filename;
      let opts = options;
      if (opts?.eval && typeof code === 'string') code = evalWorkerCode(code);
      // A worker loads this file from NODE_OPTIONS in its environment or from a preload in its execArgv; given its own
      // execArgv, or its own env (which may lack NODE_OPTIONS), it gets --require explicitly.
      const env = opts?.env;
      const givenEnv = env !== undefined && env !== null && typeof env === 'object';
      const inherited = opts?.execArgv ?? process.execArgv;
      const addPreload =
        (opts?.execArgv !== undefined || givenEnv) &&
        !inherited.includes(REGISTER_URL) &&
        !inherited.includes(REGISTER_PATH);
      if (addPreload) opts = { ...opts, execArgv: [...inherited, '--require', REGISTER_PATH] };
      threads.setEnvironmentData(PRELOAD_ADDED, addPreload);
      threads.setEnvironmentData(LAZY_ESM_KEY, startsWithoutHooks(filename, options));
      runtime.worker?.beforeSpawn(opts);
      try {
        super(code, opts);
      } catch (e) {
        runtime.worker?.spawnFailed();
        throw e;
      }
      runtime.worker?.afterSpawn(this);
    }
  }
  disguise(Worker, OriginalWorker);
  threads.Worker = Worker;
}

/**
 * An eval worker's code is a classic script that Node names `[worker eval]`; Node 20 runs no preload module
 * before it, so the instrumented script is run by `vm.runInThisContext` once this file has been imported there. Its
 * `import()` calls go to the thread's default ES module loader (`vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`, Node ≥
 * 20.12), as they do in the script Node would have run (without it, V8 rejects them:
 * `ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING`). Node warns once per thread that this option is experimental, at the
 * first such `import()`: a first one of a built-in module is made before the script runs, with that warning (not the
 * program's) held back.
 */
function evalWorkerCode(code: string): string {
  const script = JSON.stringify(transformSource(code, '[worker eval]', false));
  const main = 'vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER';
  const quiet = `(w, ...a) => { if (!String(w).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) emit.call(process, w, ...a); }`;
  const prime = `try { vm.runInThisContext("import('node:vm')", { importModuleDynamically: ${main} }); } finally { process.emitWarning = emit; }`;
  const run = `vm.runInThisContext(${script}, { filename: '[worker eval]', importModuleDynamically: ${main} });`;
  return `import(${JSON.stringify(REGISTER_URL)}).then(() => { const vm = require('node:vm'); const emit = process.emitWarning; process.emitWarning = ${quiet}; ${prime} ${run} });`;
}

/** Step 4: a warning, once per thread, when a native addon or WebAssembly module is loaded. */
function warnUninstrumented(): void {
  let reportedNative = false;
  const dlopen = process.dlopen;
  const warned = (...args: unknown[]) => {
    if (!reportedNative) warn(`native addon ${args[1]}: its memory accesses are not instrumented`);
    reportedNative = true;
    return (dlopen as (...a: unknown[]) => unknown).apply(process, args);
  };
  disguise(warned, dlopen);
  process.dlopen = warned as typeof process.dlopen;

  let reportedWasm = false;
  const wasmWarning = (): void => {
    if (loadingTool()) return; // amaro's own WebAssembly (TypeScript stripping), not the program's
    if (!reportedWasm) warn('WebAssembly module compiled: its memory accesses are not instrumented');
    reportedWasm = true;
  };
  const wasm = WebAssembly as unknown as Record<string, unknown>;
  for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
    const original = wasm[name] as (...args: unknown[]) => unknown;
    wasm[name] = function (this: unknown, ...args: unknown[]) {
      wasmWarning();
      return original.apply(this, args);
    };
  }
  wasm.Module = new Proxy(WebAssembly.Module, {
    construct(target, args, newTarget) {
      wasmWarning();
      return Reflect.construct(target, args, newTarget);
    },
  });
}

/**
 * Steps 1–4 of the file header, in a thread that runs user code; `defaultRuntime` gives the default runtime's
 * factory (`../live/runtime.ts`), loaded when it is called.
 */
export function setUpThread(defaultRuntime: () => RuntimeFactory): void {
  process.setSourceMapsEnabled(true); // the rewritten files' inline maps: stacks in the program's columns
  const runtime = loadRuntime(defaultRuntime);
  instrumentCommonJs(lazyEsmThread() ? lazyEsmHooks() : undefined);
  instrumentWorkers(runtime);
  warnUninstrumented();
  syncBuiltinESMExports();
}
