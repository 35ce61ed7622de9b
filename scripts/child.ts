/**
 * Helpers shared by the measurement scripts (bench/bench.ts, scripts/results.ts): running a TypeScript
 * script in a fresh Node process, and describing the machine they ran on.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the child processes' working directory). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A child process that did not exit with code 0. */
export class ChildError extends Error {
  constructor(
    message: string,
    /** Exit code, or null when killed by a signal. */
    readonly code: number | null,
    /** Its stderr (at most the last 32 KiB once it grew past 64 KiB). */
    readonly stderr: string,
    /** Killed because it ran longer than `timeoutMs`. */
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export interface RunNodeOptions {
  /** Arguments of `node` itself, before `--import tsx` (e.g. `--max-old-space-size=4096`). */
  nodeArgs?: string[];
  /** Copy the child's stderr to ours as it comes. */
  echoStderr?: boolean;
  /** Kill the child (SIGKILL) after this many milliseconds; default: no limit. */
  timeoutMs?: number;
}

/**
 * Runs `node [nodeArgs] --import tsx <script> <args>` in ROOT.
 * @returns the child's whole stdout (UTF-8) once it exits with code 0.
 * @throws ChildError when it exits with another code, is killed, or times out (message: the cause and the
 *   last 3 lines of its stderr); Error when it cannot be started.
 */
export function runNode(script: string, args: string[], options: RunNodeOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (stderr.length > 1 << 16) stderr = stderr.slice(-(1 << 15));
      if (options.echoStderr) process.stderr.write(d);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(stdout);
        return;
      }
      const tail = stderr.trim().split('\n').slice(-3).join(' / ');
      const cause = timedOut
        ? `timed out after ${options.timeoutMs! / 1000} s`
        : signal
          ? `killed by ${signal}`
          : `exit ${code}`;
      reject(new ChildError(`${cause}${tail ? `: ${tail}` : ''}`, code, stderr, timedOut));
    });
  });
}

/** One line naming the machine: CPU model, cores, RAM, Node version, OS (e.g. `Intel Xeon …, 2 cores, …`). */
export function describeMachine(): string {
  const cpus = os.cpus();
  return (
    `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ` +
    `${os.type()} ${os.release()} (${os.arch()})`
  );
}
