#!/usr/bin/env node
/**
 * The `goldilocks` executable: starts `check`'s parser thread where it will be needed (`./prestart.ts`), before the
 * check's bundle and the command line's wiring (`./program.ts`, commander and the option values) are loaded, hands it
 * to the check (`./prestarted.ts`), then runs that wiring; stops the thread at the end if `check` did not take it, and
 * ends a `check` as soon as its output is written. `check` loads all of it but `./prestart.ts` from one bundle
 * compiled with V8's code cache (`./check-bundle.ts`), written after the check on a miss.
 */
import { createRequire } from 'node:module';
import type { LoadedBundle } from '../node/code-cache.js';
import { EXIT_PIPE } from './options.js';

const argv = process.argv.slice(2);

type Cli = typeof import('./check-bundle.js');

/**
 * `check`'s bundle (`./check-bundle.ts`) compiled with V8's code cache (without it when no cache directory is
 * writable); undefined for other commands, with the cache off (`GOLDILOCKS_CACHE=off`: the modules as `tsc` wrote
 * them, as other commands load them, and none of the cache's) or without a bundle.
 */
async function checkBundle(): Promise<LoadedBundle<Cli> | undefined> {
  if (argv[0] !== 'check' || process.env.GOLDILOCKS_CACHE === 'off') return undefined; // the setting of ../node/cache.ts
  return (await codeCache()).loadCachedBundle(new URL('./check-bundle.js', import.meta.url));
}

/**
 * The code cache's loader (`../node/code-cache.ts`): the build's CommonJS copy of it and the modules it imports
 * (`code-cache.cjs`, scripts/bundle.ts), `require`d as the parser threads do: no ES module of them instantiated
 * (issue 24 §3: about 8M instructions less of a check's start, about 692M against 700M for a one-line trace, cachegrind);
 * else (a build of `tsc` alone, or tsx) the ES module.
 */
async function codeCache(): Promise<typeof import('../node/code-cache.js')> {
  try {
    return createRequire(import.meta.url)('../node/code-cache.cjs');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    return import('../node/code-cache.js');
  }
}

/** What `./check-bundle.ts` exports, from the modules themselves (the bundle is written over it). */
async function modules(): Promise<Cli> {
  return { ...(await import('./prestarted.js')), loadProgram: () => import('./program.js') };
}

// before the check's bundle loads, so that the thread's start-up overlaps the loading (./prestart.ts); a module of its
// own, loaded for `check` only
const started = argv[0] === 'check' ? await (await import('./prestart.js')).prestartCheck(argv) : undefined;
const bundle = await checkBundle();
const { adoptPrestarted, dropPrestarted, loadProgram } = bundle?.exports ?? (await modules());
adoptPrestarted(started);
// a write of the stream (not writeAll's synchronous ones) to a closed pipe fails as an 'error' event
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(EXIT_PIPE);
});
const { main } = await loadProgram();
try {
  process.exitCode = await main(argv);
} finally {
  dropPrestarted();
}
// on a miss, once the check has run: its compiled functions too, not only the top-level code
bundle?.writeCache();
// `check` has written all it writes (its files synchronously); once its output is out, too, it ends at once rather than
// after its threads stop and its heap is torn down (20–35 ms after the report on the 2M-event realistic trace, issue
// 24 §3). Output still queued (an asynchronous pipe or terminal) is left to the normal end, which writes it.
if (argv[0] === 'check' && process.stdout.writableLength === 0 && process.stderr.writableLength === 0)
  process.exit();
