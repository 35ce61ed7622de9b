#!/usr/bin/env node
/**
 * The `goldilocks` executable: starts `check`'s parser thread where it will be needed (`./prestart.ts`), before the
 * command line's wiring (`./program.ts`, commander and the option values) is loaded, then runs that wiring; stops the
 * thread at the end if `check` did not take it.
 */
import { EXIT_PIPE } from './options.js';
import { dropPrestarted, prestartCheck } from './prestart.js';

const argv = process.argv.slice(2);
prestartCheck(argv);
// a write of the stream (not writeAll's synchronous ones) to a closed pipe fails as an 'error' event
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(EXIT_PIPE);
});
const { main } = await import('./program.js');
try {
  process.exitCode = await main(argv);
} finally {
  dropPrestarted();
}
