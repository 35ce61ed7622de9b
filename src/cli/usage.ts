/**
 * Misuse of the command line (issue 25 §3): an unknown option value, a missing or unreadable file, and commander's
 * own complaints (unknown option or command, missing argument) each become one line on stderr,
 * `goldilocks: <what>: <value or place> (expected <what>)`, and exit code 2 (`EXIT_INPUT`, README "Exit codes").
 *
 * Option parsers here throw {@link UsageError}, not commander's `InvalidArgumentError`: commander rethrows an error
 * of another kind from a parser as it is (`Command._callParseArg`), instead of printing its own two-part message.
 * Constants and small functions only, no import of a command, so that `goldilocks --help` loads none (issue 21 §4).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { TraceError } from '../model/errors.js';
import type { Suppression } from '../report/suppressions.js';

/** A misuse of the command line: its message is the line after `goldilocks: `. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A parser of `option`'s value: one of `values`, else a UsageError naming them (`what`: what a value is). */
export function choice(option: string, what: string, values: readonly string[]): (v: string) => string {
  return (v) => {
    if (!values.includes(v))
      throw new UsageError(`${option}: unknown ${what} '${v}' (expected ${values.join(', ')})`);
    return v;
  };
}

/** A parser of `option`'s value: an integer ≥ `min` (0 or 1), else a UsageError. */
export function integerAtLeast(option: string, min: 0 | 1): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < min)
      throw new UsageError(
        `${option}: invalid number '${v}' (expected a ${min === 0 ? 'non-negative' : 'positive'} integer)`,
      );
    return n;
  };
}

/** A parser of `option`'s value: an integer from 1 to `max`, else a UsageError. */
export function integerAtMost(option: string, max: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < 1 || n > max)
      throw new UsageError(`${option}: invalid number '${v}' (expected an integer from 1 to ${max})`);
    return n;
  };
}

/** Why a file could not be used, from its Node error code. */
function problem(e: unknown, file: string): string {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return `no such file '${file}'`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to read '${file}'`;
    default:
      return `cannot read '${file}': ${(e as Error).message}`;
  }
}

/**
 * Checks that `file` (`what`: the argument or option naming it) is a file this process may read.
 * @throws UsageError `<what>: no such file '<file>' (expected <expected>)`, or the same for a directory or a file
 * without read permission.
 */
export function readableFile(file: string, what: string, expected: string): void {
  try {
    if (statSync(file).isDirectory())
      throw new UsageError(`${what}: '${file}' is a directory (expected ${expected})`);
    accessSync(file, constants.R_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${what}: ${problem(e, file)} (expected ${expected})`);
  }
}

/**
 * Checks, before any work, that `file` (named by option `what`) can be written: not a directory, in a directory
 * that exists, writable. Creates nothing.
 * @throws UsageError `<what>: cannot write '<file>': <why> (expected a writable file)`.
 */
export function writableFile(file: string, what: string): void {
  const fail = (why: string) =>
    new UsageError(`${what}: cannot write '${file}': ${why} (expected a writable file)`);
  let exists = true;
  try {
    if (statSync(file).isDirectory()) throw fail('it is a directory');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    exists = false;
  }
  const target = exists ? file : dirname(file);
  try {
    if (!exists && !statSync(target).isDirectory()) throw fail(`'${target}' is not a directory`);
    accessSync(target, constants.W_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw fail(code === 'ENOENT' ? `no directory '${target}'` : `no permission to write '${target}'`);
  }
}

/**
 * The suppressions of `file` (option `--suppressions`, ../report/suppressions.ts), read before any work.
 * @throws UsageError `--suppressions: <file>:<line>: <what is wrong> (expected ...)` for a bad line, or as
 * {@link readableFile} for a file that cannot be read.
 */
export async function suppressionsFile(file: string): Promise<Suppression[]> {
  readableFile(file, '--suppressions', 'a file of race:<pattern> lines');
  const { loadSuppressions, SuppressionError } = await import('../report/suppressions.js');
  try {
    return loadSuppressions(file);
  } catch (e) {
    if (e instanceof SuppressionError) throw new UsageError(`--suppressions: ${e.message}`);
    throw e;
  }
}

/** What {@link commanderLine} needs of a command: its name and usage line. */
export interface Usage {
  name(): string;
  usage(): string;
}

/**
 * The one line (after `goldilocks: `) for an error commander raised while parsing `command`'s arguments (its code
 * `commander.*` and its message, `error: ...` as commander words it), or undefined for one it does not know.
 */
export function commanderLine(code: string, message: string, command: Usage): string | undefined {
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const name = command.name();
  const top = name === 'goldilocks';
  const prefix = top ? '' : `${name}: `;
  const usage = `goldilocks ${top ? '' : `${name} `}${command.usage()}`;
  const option = (flags: string) => flags.split(/[ ,]+/).find((f) => f.startsWith('--')) ?? flags;
  switch (code) {
    case 'commander.unknownOption': {
      const similar = /Did you mean (\S+)\?/.exec(message)?.[1];
      const hint = similar ? `; did you mean ${similar}?` : '';
      return `${prefix}unknown option '${quoted}' (expected an option of ${usage.split(' [')[0]} --help${hint})`;
    }
    case 'commander.unknownCommand':
      return `unknown command '${quoted}' (expected check, convert or run)`;
    case 'commander.missingArgument':
      return `${prefix}missing argument <${quoted}> (expected ${usage})`;
    case 'commander.optionMissingArgument':
      return `${option(quoted)}: missing value (expected ${quoted})`;
    case 'commander.excessArguments':
      return `${prefix}too many arguments (expected ${usage})`;
    case 'commander.conflictingOption': {
      const [a, b] = [...message.matchAll(/'([^']*)'/g)].map((m) => option(m[1]));
      return `${a}: cannot be used with ${b} (expected one of the two)`;
    }
    default:
      return undefined;
  }
}

/**
 * The one line (after `goldilocks: `) for `e`, thrown while `command` ran, when it is a misuse (exit code 2): a
 * {@link UsageError}, a malformed trace (`TraceError`), a complaint of commander's, a file that could not be opened
 * or a gzip stream that is corrupt or truncated. Undefined for anything else (an internal error).
 */
export function misuseLine(e: unknown, command: Usage): string | undefined {
  if (e instanceof UsageError || e instanceof TraceError) return e.message;
  const err = e as Error & { code?: string };
  if (typeof err.code !== 'string') return undefined;
  if (err.code.startsWith('commander.'))
    return (
      commanderLine(err.code, err.message, command) ?? err.message.replace(/^error: /, '').split('\n')[0]
    );
  if (['ENOENT', 'EACCES', 'EISDIR'].includes(err.code)) return err.message;
  // zlib's Z_DATA_ERROR, Z_BUF_ERROR (a truncated file)...: the one input that can be gzip'd is the trace
  if (err.code.startsWith('Z_'))
    return `trace: corrupt gzip data: ${err.message} (expected a complete gzip file)`;
  return undefined;
}
