/**
 * `node --require goldilocks/register app.js` (what `goldilocks run` uses) or `node --import goldilocks/register app.js`
 * (package export `./register`): instruments every module of every thread and installs the runtime before any user
 * code runs. The module has no top-level await, so `--require` loads it (require of an ES module, Node ≥ 20.19 /
 * 22.12). `--require` is preferred: under `--import`, Node 20 loads a CommonJS entry point through the ESM loader,
 * which keeps objects alive that plain `node` lets the garbage collector take (thread-stream's "close the work if out
 * of scope on gc" fails under any `--import`, even an empty module, and passes under `--require`).
 *
 * Node's loader-hooks thread (a worker without a parent port) also runs `--require` preloads: there this module does
 * nothing and loads nothing more (`./loader.ts` installs the passthrough hooks it needs), as the worker whose modules
 * that thread loads waits for it to start (issue 24 §2). A worker that its parent decided may start without the ESM loader
 * hooks, or a main thread that decided so for itself (`./lazy-esm.ts`: a CommonJS or ES module entry of Node's
 * default loaders), is only set up (`./setup.ts`): its ES modules are instrumented in the thread, and the hooks
 * registered there later only where that cannot be done. In any other thread that runs user code it registers the ESM loader
 * hooks of `./loader.ts` (node:module `register`), first, and sets the thread up (`./setup.ts`: the runtime, the
 * CommonJS loader, workers) while Node starts the loader-hooks thread that registering starts: `register` blocks
 * until that thread has started (Node 20: tens of milliseconds, a thread per thread that registers; the floor of a
 * worker's start, docs/BENCHMARKS.md), and Node calls the specifier's `toString` after it has started the thread and
 * before it waits. The set-up is the build's bundle of `./setup.ts` and the runtime, loaded with V8's code cache
 * (`./code-cache.ts`), or else (a build of `tsc` alone) the modules themselves. (A Node that calls `toString`
 * elsewhere, or takes only a string, gets the same set-up without the overlap.) Node's loader code
 * (`internal/modules/esm/hooks`) is also loaded before the runtime patches `Atomics`: its own lock is not taken for
 * the program's synchronization. The main thread first finds the transform cache's set-up, once per process
 * (`./cache.ts`), which every thread it starts inherits: the loader-hooks thread too.
 */
import { createRequire, register } from 'node:module';
import { isMainThread, parentPort } from 'node:worker_threads';

if (isMainThread || parentPort !== null) {
  const require = createRequire(import.meta.url);
  if (isMainThread) (require('./cache.js') as typeof import('./cache.js')).cacheSetup();
  // a thread that starts without the ES module hooks (./lazy-esm.ts): its set-up registers them when needed
  if ((require('./lazy-esm.js') as typeof import('./lazy-esm.js')).lazyEsmThread())
    (require('./code-cache.js') as typeof import('./code-cache.js')).setUp(require);
  else registerAndSetUp(require);
}

/** Registers the ES module hooks of `./loader.ts` and sets the thread up while Node starts its loader-hooks thread. */
function registerAndSetUp(require: NodeJS.Require): void {
  let setUp = false;
  const setUpThread = (): void => {
    if (setUp) return;
    setUp = true;
    (require('./code-cache.js') as typeof import('./code-cache.js')).setUp(require);
  };
  const loader = {
    toString(): string {
      setUpThread(); // while Node starts the loader-hooks thread (see the file header)
      return './loader.js';
    },
  };
  try {
    register(loader as unknown as string, import.meta.url);
  } catch (e) {
    if (setUp) throw e; // the set-up's error, or Node's after it
    register('./loader.js', import.meta.url); // a Node that takes only a string
  }
  setUpThread();
}
