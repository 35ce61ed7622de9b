#!/usr/bin/env node
/**
 * The `goldilocks` executable (package.json `bin`): starts `check`'s parser thread where it will be needed
 * (`./prestart.ts`), before the check's bundle and the command line's wiring (`./program.ts`, commander and the option
 * values) are loaded, hands it to the check (`./prestarted.ts`), then runs that wiring; stops the thread at the end if
 * `check` did not take it, and ends a `check` as soon as its output is written. `check` loads all of it but
 * `./prestart.ts` from one bundle compiled with V8's code cache (`./check-bundle.ts`), written after the check on a
 * miss.
 *
 * A CommonJS script (issue 24 §3): Node starts an ES module entry through its ES module loader, whose modules it
 * compiles and initializes first (about 6 ms of a check's start here, against a CommonJS entry: 53 against 47 ms for a
 * one-line trace, median of 20 alternating runs), and the parser thread's start, which the first events wait for,
 * begins only after that. So `check` takes only CommonJS: this script, the build's CommonJS copies of `./prestart.ts`
 * (`prestart.cjs`) and of the code cache's loader (`../node/code-cache.cjs`: scripts/bundle.ts), and the check's
 * bundle; no ES module loader starts. A build of `tsc` alone (no copies), and the other commands, import the ES
 * modules. `./main.ts` runs this script from an ES module, for the callers that name `dist/cli/main.js`.
 */
import type { LoadedBundle } from '../node/code-cache.js' with { 'resolution-mode': 'import' };

const argv = process.argv.slice(2);

type Cli = typeof import('./check-bundle.js', { with: { 'resolution-mode': 'import' }});

/** `require` of the build's CommonJS copy `file` (beside this script), or undefined when the build wrote none. */
function requireCopy<T>(file: string): T | undefined {
  try {
    return require(file) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    return undefined;
  }
}

/** `./prestart.ts`: the build's CommonJS copy (`prestart.cjs`), else the ES module. */
async function prestart(): Promise<typeof import('./prestart.js', { with: { 'resolution-mode': 'import' }})> {
  return (
    requireCopy<typeof import('./prestart.js', { with: { 'resolution-mode': 'import' }})>('./prestart.cjs') ??
    import('./prestart.js')
  );
}

/**
 * The code cache's loader (`../node/code-cache.ts`): the build's CommonJS copy of it and the modules it imports
 * (`code-cache.cjs`, scripts/bundle.ts), `require`d as the parser threads do (issue 24 §3: about 8M instructions
 * less of a check's start than its ES modules, cachegrind); else (a build of `tsc` alone) the ES module.
 */
async function codeCache(): Promise<
  typeof import('../node/code-cache.js', { with: { 'resolution-mode': 'import' }})
> {
  return (
    requireCopy<typeof import('../node/code-cache.js', { with: { 'resolution-mode': 'import' }})>(
      '../node/code-cache.cjs',
    ) ?? import('../node/code-cache.js')
  );
}

/**
 * `check`'s bundle (`./check-bundle.ts`) compiled with V8's code cache (without it when no cache directory is
 * writable); undefined for other commands, with the cache off (`GOLDILOCKS_CACHE=off`: the modules as `tsc` wrote
 * them, as other commands load them, and none of the cache's) or without a bundle.
 */
async function checkBundle(): Promise<LoadedBundle<Cli> | undefined> {
  // GOLDILOCKS_CACHE: the setting of ../node/cache.ts
  if (argv[0] !== 'check' || process.env.GOLDILOCKS_CACHE === 'off') return undefined;
  const { pathToFileURL } = require('node:url') as typeof import('node:url');
  return (await codeCache()).loadCachedBundle(new URL('./check-bundle.js', pathToFileURL(__filename)));
}

/** What `./check-bundle.ts` exports, from the modules themselves (the bundle is written over it). */
async function modules(): Promise<Cli> {
  return { ...(await import('./prestarted.js')), loadProgram: () => import('./program.js') };
}

async function run(): Promise<void> {
  // before the check's bundle loads, so that the thread's start-up overlaps the loading (./prestart.ts); a module of
  // its own, loaded for `check` only
  const started = argv[0] === 'check' ? await (await prestart()).prestartCheck(argv) : undefined;
  const bundle = await checkBundle();
  const { adoptPrestarted, dropPrestarted, loadProgram } = bundle?.exports ?? (await modules());
  adoptPrestarted(started);
  const { main, EXIT_PIPE } = await loadProgram();
  // a write of the stream (not writeAll's synchronous ones) to a closed pipe fails as an 'error' event
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(EXIT_PIPE);
  });
  try {
    process.exitCode = await main(argv);
  } finally {
    dropPrestarted();
  }
  // on a miss, once the check has run: its compiled functions too, not only the top-level code
  bundle?.writeCache();
  // `check` has written all it writes (its files synchronously); once its output is out, too, it ends at once rather
  // than after its threads stop and its heap is torn down (20–35 ms after the report on the 2M-event realistic trace,
  // issue 24 §3). Output still queued (an asynchronous pipe or terminal) is left to the normal end, which writes it.
  if (argv[0] === 'check' && process.stdout.writableLength === 0 && process.stderr.writableLength === 0)
    process.exit();
}

// a rejection ends the process with the error printed and code 1, as an ES module's top-level await does
void run();
