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
 * `env` with {@link requireOption} of `register.js` appended to its `NODE_OPTIONS`: the environment of an instrumented
 * process, so that it, its workers and the node processes it spawns in turn all load the hooks first.
 */
export function instrumentedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} ${requireOption(REGISTER_PATH)}`.trim() };
}

/** The exit code of a process that exited with `code` or was ended by `signal`: 128 + its number (as a shell). */
export const exitCode = (code: number | null, signal: NodeJS.Signals | null): number =>
  code ?? 128 + (signal ? (constants.signals as Record<string, number>)[signal] : 0);

/**
 * Spawns `node ...args` (or `command ...args`) with the {@link instrumentedEnv} of `options.env`. A SIGTERM sent to
 * this process while the child runs is passed on to the child, which then ends as it would under plain node (this
 * process with it, by the child's exit code): `kill` of the `goldilocks` process, or the timeout of a command that
 * started it, would otherwise leave the program running on its own. Signals a terminal sends (SIGINT, SIGQUIT, SIGHUP)
 * reach the child from the terminal itself, as part of its process group, and are not passed on twice.
 * @returns the child's {@link exitCode}.
 * @throws the spawn error (e.g. ENOENT) when the child could not be started.
 */
export function run(args: readonly string[], options: RunOptions = {}): Promise<number> {
  const env = instrumentedEnv(options.env ?? process.env);
  const child = spawn(options.command ?? process.execPath, args, { env, stdio: options.stdio ?? 'inherit' });
  const terminate = (): void => {
    child.kill('SIGTERM');
  };
  process.on('SIGTERM', terminate);
  return new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(exitCode(code, signal)));
  }).finally(() => process.off('SIGTERM', terminate));
}
