/**
 * `goldilocks run`'s core: runs `node <args>` with every module of every thread instrumented.
 */
import { type StdioOptions, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

export { UNCHECKED_LIST } from './unchecked.js';

/** Path of `register.js`, which `--require` loads (see its header for why not `--import`). */
export const REGISTER_PATH = fileURLToPath(new URL('./register.js', import.meta.url));

/**
 * Options of {@link run}: the child's environment (default `process.env`), stdio (default `'inherit'`), and the
 * command (default this `node`; any other command is looked up on PATH and gets the same `NODE_OPTIONS`).
 */
export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
  command?: string;
}

/**
 * `--require "<path>"` as `NODE_OPTIONS` parses it: quoted, `"` and backslash escaped (Node.js CLI docs, NODE_OPTIONS).
 */
export function requireOption(path: string): string {
  return `--require "${path.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * Spawns `node ...args` (or `command ...args`) with {@link requireOption} of `register.js` appended to `NODE_OPTIONS`,
 * so that the child, its workers and the node processes it spawns in turn all load the hooks first.
 * @returns the child's exit code, or 128 + the signal number when a signal ended it (as a shell reports it).
 * @throws the spawn error (e.g. ENOENT) when the child could not be started.
 */
export function run(args: readonly string[], options: RunOptions = {}): Promise<number> {
  const env = { ...(options.env ?? process.env) };
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} ${requireOption(REGISTER_PATH)}`.trim();
  const child = spawn(options.command ?? process.execPath, args, { env, stdio: options.stdio ?? 'inherit' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      resolve(code ?? 128 + (signal ? (constants.signals as Record<string, number>)[signal] : 0)),
    );
  });
}
