/**
 * Loads the build's bundles with V8's code cache: the thread's set-up (`./setup.ts`) for `./register.ts`, in every
 * thread that runs user code ({@link setUp}); `goldilocks check`'s code (`../cli/check-bundle.ts`, for
 * `../cli/main.cts`); its parser threads' (`../trace/parse-worker.ts`, `../trace/split-worker.ts`: {@link runWorker}).
 * The build writes each as one CommonJS script over the module `tsc` wrote at its entry (`scripts/bundle.ts`; its
 * first line is {@link BUNDLE_MARK}); a build of `tsc` alone leaves the ES modules, which are then loaded as they are.
 *
 * A script is compiled with V8's code cache (issue 24 §2, worker start-up: compiling the runtime was 11–18 ms of
 * each worker's start, plus the functions compiled lazily while it sets up; §3, `check`'s start-up: loading and
 * compiling its modules was about 219 M of a 100-line check's 719 M instructions), as Node's own compile cache and
 * `v8-compile-cache` do: `vm.Script` with `cachedData`, and on a miss, once the code has run (so that the functions
 * it compiled are in it: {@link LoadedBundle.writeCache}), `createCachedData()` written to the transform cache's
 * directory (`./cache.ts`; none when it is off). **Key**: the script's CRC-32 and length, the CRC-32 of its URL, Node's version and
 * `v8.cachedDataVersionTag()` (V8's version, flags and CPU features), so a rebuilt bundle or another Node never reads
 * an older entry. The URL is in it because V8 keeps the compiling script's name in the data: a copy of the same build
 * elsewhere (another checkout, another project's `node_modules`) would otherwise name the first copy's file in its
 * stacks, which sites and reports then take for a program's frame; V8 checks the data again
 * and rejects what does not fit (`cachedDataRejected`: then it is written again). Written atomically, as `./cache.ts`
 * writes its entries. Errors of the cache are never the program's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import type { RuntimeFactory } from '../hooks/contract.js';
import { cacheDirectory, cacheSetup, writeAtomically } from './cache.js';

/** The first line of the bundle `scripts/bundle.ts` writes over `./setup.js`. */
export const BUNDLE_MARK =
  '// bundled by scripts/bundle.ts: a CommonJS script, loaded by dist/node/code-cache.js';

/** The name the bundle's code gives `import.meta.url` (esbuild `define`): a parameter of its wrapper. */
export const IMPORT_META_URL = '__goldilocksImportMetaUrl';

/** What the set-up's bundle exports: the set-up and the default runtime, initialized when it is called. */
interface SetUp {
  setUpThread(defaultRuntime: () => RuntimeFactory): void;
  defaultRuntime(): RuntimeFactory;
}

/** A bundle compiled by {@link loadBundle}: its exports, and what writes its code cache once its code has run. */
export interface LoadedBundle<T> {
  exports: T;
  /**
   * Writes the script's code cache (`createCachedData()`, with the functions compiled so far: call it once the code
   * has done its work) when the entry was missing or rejected; else, or with the cache off, does nothing. Never throws.
   */
  writeCache(): void;
}

/**
 * Compiles and runs the bundle at `url` (a CommonJS script `scripts/bundle.ts` wrote, first line {@link BUNDLE_MARK};
 * it must not `import()`: V8 forgets the callback Node gives it with `cachedData`) with V8's code cache, in the
 * directory `dir` (null: compiled without it); see the file header for the key.
 * @returns its exports, or undefined when the file is missing or not a bundle (a build of `tsc` alone, or tsx).
 * @throws what the bundle's top-level code throws.
 */
export function loadBundle<T>(url: URL, dir: string | null): LoadedBundle<T> | undefined {
  let source: string | undefined;
  try {
    source = readFileSync(url, 'utf8');
  } catch {
    // not beside a build (under tsx)
  }
  if (source === undefined || !source.startsWith(BUNDLE_MARK)) return undefined;
  const filename = url.href; // stacks name the file as they name an ES module's, by URL
  const entry =
    dir === null
      ? undefined
      : join(
          dir,
          `code-${crc32(source).toString(16)}-${source.length}-${crc32(filename).toString(16)}-${process.version}-${cachedDataVersionTag()}`,
        );
  let cachedData: Buffer | undefined;
  try {
    if (entry !== undefined) cachedData = readFileSync(entry);
  } catch {
    // a miss
  }
  const script = new Script(`(function (exports, require, module, ${IMPORT_META_URL}) {\n${source}\n})`, {
    filename,
    lineOffset: -1,
    cachedData,
  });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(fileURLToPath(url)),
    module,
    filename,
  );
  let stale = entry !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    exports: module.exports,
    writeCache() {
      if (!stale || entry === undefined) return;
      stale = false;
      writeAtomically(entry, script.createCachedData());
    },
  };
}

/**
 * {@link loadBundle} of the bundle at `url` in the cache's directory ({@link cacheDirectory}; without it when it is
 * off): `goldilocks check`'s (`../cli/main.cts`) and the parser threads' ({@link runWorker}).
 * @throws what the bundle's top-level code throws.
 */
export function loadCachedBundle<T>(url: URL): LoadedBundle<T> | undefined {
  return loadBundle<T>(url, cacheDirectory());
}

/** What a worker thread's module exports (`../trace/parse-worker.ts`, `../trace/split-worker.ts`). */
interface WorkerModule {
  /** Does the thread's work; calls `compiled` once its code has run enough to be worth caching. */
  main(compiled: () => void): Promise<void>;
}

/**
 * Runs the worker module at `href` in this thread (`startWorker` of `../trace/parser-start.ts`): its bundle with the code
 * cache, in the cache's directory ({@link cacheDirectory}; without it when it is off), written when its `main` says
 * its code is compiled; else (a build of `tsc` alone) the ES module.
 * @throws what the module throws.
 */
export async function runWorker(href: string): Promise<void> {
  const bundle = loadCachedBundle<WorkerModule>(new URL(href));
  const { main } = bundle?.exports ?? ((await import(href)) as WorkerModule);
  await main(() => bundle?.writeCache());
}

const SETUP_URL = new URL('./setup.js', import.meta.url);

/**
 * Sets this thread up (`./setup.ts`): the bundle with the code cache, in the transform cache's directory, else
 * `tsc`'s modules through `require`.
 * @throws what the set-up throws.
 */
export function setUp(require: NodeJS.Require): void {
  const bundle = loadBundle<SetUp>(SETUP_URL, cacheSetup().dir);
  if (bundle === undefined) {
    const { setUpThread } = require('./setup.js') as typeof import('./setup.js');
    setUpThread(() => (require('../live/runtime.js') as { default: RuntimeFactory }).default);
    return;
  }
  bundle.exports.setUpThread(bundle.exports.defaultRuntime);
  bundle.writeCache();
}
