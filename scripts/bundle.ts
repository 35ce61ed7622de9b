/**
 * The last step of `npm run build` (issue 24 §2, worker start-up): replaces `dist/live/runtime.js`, the runtime that
 * `dist/node/register.js` loads into every thread, by one file holding it and the project modules it imports (about
 * 75 modules; loading them one by one took ~70 ms of each worker's start, the bundle a fraction of that:
 * `npm run bench:worker-start`). Bundled with esbuild, a maintained bundler (already what tsx runs on), rather than
 * code of our own.
 *
 * Left out of the bundle, imported from where `tsc` put them: npm packages, and the modules that other code of the
 * same thread loads too, whose state the runtime must share with it, one instance per thread: `dist/node/` and
 * `dist/hooks/` (`register.js`: settings, the not-shared view cache, the transform cache) and the libraries programs
 * import, `dist/sync/`, `dist/stm/`, `dist/annotations/` (their observers, which the runtime sets). Running `tsc` alone writes the unbundled
 * `runtime.js` back: slower to load, the same behaviour.
 *
 * No source maps, here nor from `tsc` (tsconfig.json): the runtime turns Node's source maps on in every thread
 * (`dist/node/register.js`), and Node then reads and decodes the map of each module as it loads it: 15–40 ms of each
 * worker's start went to the maps of dist/ (CPU profiles of bench/startup/workers.mjs). Stacks in goldilocks's own
 * code name dist/ lines, which `tsc` keeps close to src/.
 *
 *   node --import tsx scripts/bundle.ts
 *
 * @throws (exits 1) when esbuild reports an error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { ROOT } from './child.js';

const DIST = path.join(ROOT, 'dist');
const ENTRY = path.join(DIST, 'live', 'runtime.js');
/** Folders of `dist/` whose modules stay separate (shared with `register.js` and the libraries programs import). */
const SHARED = ['node', 'hooks', 'sync', 'stm', 'annotations'].map((d) => path.join(DIST, d) + path.sep);

/** Marks imports that resolve into {@link SHARED} external, rewritten relative to the bundle's folder. */
const sharedExternal: Plugin = {
  name: 'shared-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (!SHARED.some((dir) => target.startsWith(dir))) return undefined;
      const rel = path.relative(path.dirname(ENTRY), target).split(path.sep).join('/');
      return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
    });
  },
};

const before = readFileSync(ENTRY, 'utf8');
if (before.startsWith('// bundled')) throw new Error(`${ENTRY} is already a bundle: run tsc first`);
const result = await build({
  entryPoints: [ENTRY],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [sharedExternal],
  banner: { js: '// bundled by scripts/bundle.ts from the modules tsc wrote to dist/' },
  outfile: ENTRY,
  allowOverwrite: true,
  write: false,
  logLevel: 'warning',
});
for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
