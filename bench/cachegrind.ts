/** Counting the machine instructions a Node.js process executes, for the benchmarks that count rather than time. */
import { spawnSync } from 'node:child_process';

/**
 * Runs `node --single-threaded ...args` (no compiler or GC threads: a count then repeats to about 0.1% on a quiet
 * machine) in `cwd` under valgrind's cachegrind.
 * @returns the instructions it executed (cachegrind's "I refs")
 * @throws Error with the exit code and valgrind's output when it does not exit with 0 (or valgrind is missing)
 */
export function countInstructions(args: string[], cwd?: string): number {
  const r = spawnSync(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--smc-check=all-non-file',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      ...args,
    ],
    { cwd, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // valgrind reports on stderr
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || m === null)
    throw new Error(`the run under valgrind failed (exit ${r.status ?? r.error}):\n${r.stderr}`);
  return Number(m[1].replace(/,/g, ''));
}

/** Whether valgrind runs here (Debian package `valgrind`). */
export const hasValgrind = (): boolean => spawnSync('valgrind', ['--version']).status === 0;
