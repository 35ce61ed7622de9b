/**
 * The runtime's settings: the `GOLDILOCKS_*` environment variables of the process as its main thread saw them
 * (`GOLDILOCKS_RUNTIME`, `GOLDILOCKS_ON_RACE`, `GOLDILOCKS_REPORT`, `GOLDILOCKS_REPORT_DIR`, ...). Workers get
 * them through `worker_threads` environment data rather than through their `process.env`, so a worker given its own
 * `env` sees exactly that env and still runs with the process's settings.
 */
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';

const KEY = 'goldilocks.settings';

function fromEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('GOLDILOCKS_')));
}

/** Setting name (`GOLDILOCKS_X`) → value. */
export const settings: Readonly<Record<string, string | undefined>> = isMainThread
  ? fromEnv()
  : ((getEnvironmentData(KEY) as Record<string, string | undefined> | undefined) ?? fromEnv());
if (isMainThread) setEnvironmentData(KEY, settings as never);
