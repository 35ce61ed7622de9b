/**
 * What the commands' wiring (`./main.cts`) shares with their implementations (`./check.ts`, `./convert.ts`,
 * `./run.ts`, each loaded only when its command runs): the version, the exit codes and the optimizations of
 * `check --disable`. Constants only, so that `goldilocks --help` loads none of the commands (issue 21 §4).
 */
import { readFileSync } from 'node:fs';

/** goldilocks' version (package.json), for `--version` and the tool of a SARIF log. */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Exit codes (README "Exit codes"). */
export const EXIT_OK = 0;
export const EXIT_RACES = 1;
export const EXIT_INPUT = 2;
export const EXIT_INTERNAL = 3;
/**
 * Standard output was closed before all was written (`goldilocks convert big.trace | head`): the status of a process
 * killed by SIGPIPE (128 + 13), as the shell's tools end, without a message. Node ignores SIGPIPE and fails the write
 * with EPIPE instead.
 */
export const EXIT_PIPE = 141;

/** The optimizations `goldilocks check --disable` switches off (the detector options they map to: `./check.ts`). */
export const OPTIMIZATIONS = [
  'xact',
  'owner',
  'alock',
  'transfer',
  'gc',
  'eager',
  'walkcache',
  'hbmemo',
] as const;
