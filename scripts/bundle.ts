/**
 * The last step of `npm run build` (issue 24 §2, worker start-up): bundles the modules each thread loads, which
 * loaded one by one took most of a worker's start under the runtime (`npm run bench:worker-start`; CPU profiles of
 * bench/startup/workers.mjs). Bundled with esbuild, a maintained bundler (already what tsx runs on), rather than code
 * of our own. Each bundle is written over the module `tsc` wrote at its entry, so that running `tsc` alone gives
 * the unbundled build back (slower to start, the same behaviour):
 *
 * - `dist/node/setup.js`, in every thread that runs user code: the set-up (`src/node/setup.ts`), the hooks, the
 *   transform and the default runtime (`src/live/runtime.ts`, about 75 modules, initialized only when
 *   `defaultRuntime()` is called: not when `GOLDILOCKS_RUNTIME` names another), as one CommonJS script that
 *   `dist/node/code-cache.js` compiles with V8's code cache (its first line is `BUNDLE_MARK`; `import.meta.url` is
 *   the script's own URL, `IMPORT_META_URL`). Left out, loaded from where `tsc` put them: npm packages, and the
 *   libraries programs import, `dist/sync/`, `dist/stm/`, `dist/annotations/`, whose observers the runtime sets and
 *   must share with the program (one instance per thread).
 * - `dist/node/loader.js`, in every loader-hooks thread: the ESM loader hooks, the hooks and the transform, as one ES
 *   module (npm packages left out).
 * - `dist/cli/check-bundle.js`, for `goldilocks check` (issue 24 §3, its start-up): the wiring, the check, the readers,
 *   detectors and reports, and the npm packages they use, as one CommonJS script that `dist/cli/main.cjs` compiles with
 *   V8's code cache (`dist/node/code-cache.js`); each module keeps its own `import.meta.url`, `import()` of a
 *   built-in is a `require` (V8 drops a script's `import()` callback when it is given `cachedData`), and `import()` of
 *   a module in the bundle a static import, so that no module is initialized lazily ({@link staticImports}).
 * - `dist/trace/parse-worker.js` and `split-worker.js`, the parser threads' modules, likewise (run by `runWorker` of
 *   `dist/node/code-cache.cjs`).
 * - `dist/node/code-cache.cjs`: `dist/node/code-cache.js` and the modules it imports as one CommonJS module, which a
 *   parser thread's first line `require`s (`startWorker` of `src/trace/parser-start.ts`): an `import()` there would start
 *   the thread's ES module loader and load three modules through it before the thread could parse (issue 24 §3: about
 *   24 M instructions of a parser thread's start, counted with cachegrind); `dist/cli/main.cjs` requires it too, to
 *   load `check`'s bundle (about 8 M instructions less than importing its ES modules).
 * - `dist/cli/prestart.cjs`: `dist/cli/prestart.js` and the modules it loads (`trace/reading.js`, and
 *   `trace/parser-start.js` when it starts a thread) as one CommonJS module, which `dist/cli/main.cjs` requires first
 *   for `check`, so that it starts the parser thread without starting Node's ES module loader (`src/cli/main.cts`).
 *
 * No source maps, here nor from `tsc` (tsconfig.json): the runtime turns Node's source maps on in every thread
 * (`dist/node/setup.js`), and Node then reads and decodes the map of each module as it loads it: 15–40 ms of each
 * worker's start went to the maps of dist/ (CPU profiles of bench/startup/workers.mjs). Stacks in goldilocks's own
 * code name the bundles' lines.
 *
 *   node --import tsx scripts/bundle.ts
 *
 * @throws (exits 1) when esbuild reports an error, or when a bundle is bundled again (run `tsc` first).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { BUNDLE_MARK, IMPORT_META_URL } from '../src/node/code-cache.js';
import { ROOT } from './child.js';

const NODE = path.join(ROOT, 'dist', 'node');
const CLI = path.join(ROOT, 'dist', 'cli');
const CHECK = path.join(CLI, 'check-bundle.js');
const TRACE = path.join(ROOT, 'dist', 'trace');
const WORKERS = ['parse-worker.js', 'split-worker.js'].map((f) => path.join(TRACE, f));
const SETUP = path.join(NODE, 'setup.js');
const LOADER = path.join(NODE, 'loader.js');
/** Folders of `dist/` whose modules stay separate: the libraries programs import (their observers are shared). */
const SHARED = ['sync', 'stm', 'annotations'].map((d) => path.join(ROOT, 'dist', d) + path.sep);

/** Marks imports that resolve into {@link SHARED} external, rewritten relative to the bundles' folder. */
const sharedExternal: Plugin = {
  name: 'shared-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (!SHARED.some((dir) => target.startsWith(dir))) return undefined;
      const rel = path.relative(NODE, target).split(path.sep).join('/');
      return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
    });
  },
};

/**
 * Gives each module of `dist/` its own `import.meta.url` in a CommonJS bundle: its URL relative to the bundle's
 * ({@link IMPORT_META_URL}), so that files it finds beside it (a worker's module, `package.json`) are found as from
 * the module `tsc` wrote; with `external` (absolute paths of the modules left out), each `import()` of a bundled
 * module becomes a static import ({@link staticImports}).
 */
const ownImportMetaUrl = (bundleDir: string, external?: string[]): Plugin => ({
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(path.join(ROOT, 'dist') + path.sep)) return undefined;
      const rel = path.relative(bundleDir, args.path).split(path.sep).join('/');
      const url = `new URL(${JSON.stringify(rel)}, ${IMPORT_META_URL}).href`;
      const contents = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', url);
      return {
        contents: external === undefined ? contents : staticImports(contents, args.path, external),
        loader: 'js',
      };
    });
  },
});

/**
 * `code` (the module at `file`) with each `import('./….js')` of a module of `dist/` that is bundled (not in
 * `external`, absolute paths) turned into a namespace import at the top, resolved at once: `Promise.resolve(ns)`.
 * Issue 24 §3: esbuild initializes a module that is imported by `import()` (and every module only it imports) lazily,
 * in a wrapper whose top-level constants and classes become mutable variables of the bundle's scope; V8 then loads
 * and checks each (a table, a class, a numeric constant) at every use in optimized code. In the check's bundle that was
 * nearly every module, the detectors, the engine and the interner included: a one-thread check of the 2M-event
 * realistic trace executed 7% more instructions from the bundle than from the modules, and 10% fewer with these
 * imports static (cachegrind, `--single-threaded`). Every module of the bundle is then initialized when it loads.
 */
function staticImports(code: string, file: string, external: string[]): string {
  const hoisted: string[] = [];
  const body = code.replace(/\bimport\((['"])(\.\.?\/[^'"]+\.js)\1\)/g, (call, _q: string, spec: string) => {
    if (external.includes(path.resolve(path.dirname(file), spec))) return call;
    const name = `__hoisted${hoisted.length}`;
    hoisted.push(`import * as ${name} from ${JSON.stringify(spec)};`);
    return `Promise.resolve(${name})`;
  });
  return hoisted.length === 0 ? code : `${hoisted.join('\n')}\n${body}`;
}

const COMMON: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  allowOverwrite: true,
  write: false,
  logLevel: 'warning',
};

/** Writes the output files of an esbuild result. */
const writeOutputs = (result: { outputFiles?: { path: string; contents: Uint8Array }[] }): void => {
  for (const file of result.outputFiles ?? []) writeFileSync(file.path, file.contents);
};

/** @throws when `file` is already a bundle (its first line starts with `mark`). */
function notBundled(file: string, mark: string): void {
  if (readFileSync(file, 'utf8').startsWith(mark))
    throw new Error(`${file} is already a bundle: run tsc first`);
}

const LOADER_MARK = '// bundled by scripts/bundle.ts';
notBundled(SETUP, BUNDLE_MARK);
notBundled(LOADER, LOADER_MARK);
notBundled(CHECK, BUNDLE_MARK);
for (const worker of WORKERS) notBundled(worker, BUNDLE_MARK);

// the entry: the set-up, and the runtime behind a require that esbuild turns into a lazy initialization
const entry = `export { setUpThread } from './setup.js';
export const defaultRuntime = () => require('../live/runtime.js').default;
`;
writeOutputs(
  await build({
    ...COMMON,
    stdin: { contents: entry, resolveDir: NODE, sourcefile: 'thread-entry.js', loader: 'js' },
    format: 'cjs',
    plugins: [sharedExternal],
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: `${BUNDLE_MARK}\n'use strict';` },
    outfile: SETUP,
  }),
);
writeOutputs(
  await build({
    ...COMMON,
    entryPoints: [LOADER],
    format: 'esm',
    banner: { js: `${LOADER_MARK} from the modules tsc wrote to dist/` },
    outfile: LOADER,
  }),
);
/** A CommonJS script for `dist/node/code-cache.js`: what `check` and its parser threads load (see the header). */
const CODE_CACHED: BuildOptions = {
  ...COMMON,
  format: 'cjs',
  logOverride: { 'empty-import-meta': 'silent' }, // import.meta.resolve: only under tsx (trace/pipeline.ts)
  // import() of what stays outside (node:os, node:zlib) as require: V8 drops the script's import() callback with
  // cachedData (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING)
  supported: { 'dynamic-import': false },
  banner: { js: `${BUNDLE_MARK}\n'use strict';` },
};
/** The other commands, which `check` never loads: left out of its bundle. */
const CHECK_EXTERNAL = ['./run.js', './convert.js', './jumble-campaign.js'];
// `goldilocks check`: its npm packages in it too (commander, picocolors, cli-progress), so that all of its code is
// compiled from the code cache; the other commands, which `check` never loads, stay apart
writeOutputs(
  await build({
    ...CODE_CACHED,
    entryPoints: [CHECK],
    packages: undefined,
    external: CHECK_EXTERNAL,
    plugins: [
      ownImportMetaUrl(
        CLI,
        CHECK_EXTERNAL.map((f) => path.join(CLI, f)),
      ),
    ],
    outfile: CHECK,
  }),
);
// what each of `check`'s parser threads requires first, as CommonJS: `import.meta.url` is the module's own URL
writeOutputs(
  await build({
    ...COMMON,
    entryPoints: [path.join(NODE, 'code-cache.js')],
    format: 'cjs',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: {
      js: `${LOADER_MARK}\n'use strict';\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
    outfile: path.join(NODE, 'code-cache.cjs'),
  }),
);
// what the executable (`dist/cli/main.cjs`) requires first for `check`: `prestart.js` and the modules it loads, as
// CommonJS, so that no ES module loader starts; each module keeps its own `import.meta.url` (parser-start.js finds the
// parser threads' modules beside it)
writeOutputs(
  await build({
    ...CODE_CACHED,
    entryPoints: [path.join(CLI, 'prestart.js')],
    plugins: [ownImportMetaUrl(CLI)],
    banner: {
      js: `${LOADER_MARK}\n'use strict';\nconst ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`,
    },
    outfile: path.join(CLI, 'prestart.cjs'),
  }),
);
// `check`'s parser threads, each started by dist/node/code-cache.cjs's runWorker (npm packages: none)
writeOutputs(
  await build({ ...CODE_CACHED, entryPoints: WORKERS, plugins: [ownImportMetaUrl(TRACE)], outdir: TRACE }),
);
