/**
 * `node --require goldilocks/register app.js` (what `goldilocks run` uses) or `node --import goldilocks/register app.js`
 * (package export `./register`): instruments every module of every thread and installs the runtime before any user
 * code runs (`./setup.ts`). The module has no top-level await, so `--require` loads it (require of an ES module,
 * Node ≥ 20.19 / 22.12). `--require` is preferred: under `--import`, Node 20 loads a CommonJS entry point through the
 * ESM loader, which keeps objects alive that plain `node` lets the garbage collector take (thread-stream's "close the
 * work if out of scope on gc" fails under any `--import`, even an empty module, and passes under `--require`).
 *
 * Node's loader-hooks thread (a worker without a parent port) also runs `--require` preloads: there this module does
 * nothing and loads nothing more (`./loader.ts` installs the passthrough hooks it needs), as the worker whose modules
 * that thread loads waits for it to start (issue 24 §2). In a thread that runs user code it loads the set-up, the
 * build's bundle of `./setup.ts` and the runtime, with V8's code cache (`./code-cache.ts`), or else (a build of `tsc`
 * alone) the modules themselves, and runs it.
 */
import { createRequire } from 'node:module';
import { isMainThread, parentPort } from 'node:worker_threads';

if (isMainThread || parentPort !== null) {
  const require = createRequire(import.meta.url);
  (require('./code-cache.js') as typeof import('./code-cache.js')).setUp(require);
}
