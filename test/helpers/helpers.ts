/** Helpers shared by the test files: the built CLI, temporary files, expected trace errors, chunked reading. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceError } from '../../src/model/errors.js';
import { Symbols } from '../../src/model/symbols.js';
import type { JsonReport } from '../../src/report/json.js';
import { type Format, TraceFeeder } from '../../src/trace/reader.js';
import { formatEvent } from '../../src/trace/writer.js';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The compiled CLI (`npm test` builds first). */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** One temporary directory for the whole test process. */
export const TMP = mkdtempSync(join(tmpdir(), 'goldilocks-test-'));
let files = 0;

/** A fresh path in TMP ending in `name` (nothing is written). */
export function tempPath(name: string): string {
  return join(TMP, `${files++}-${name}`);
}

/** Writes `content` to a fresh file in TMP ending in `name`. @returns its path. */
export function tempFile(name: string, content: string | Buffer): string {
  const p = tempPath(name);
  writeFileSync(p, content);
  return p;
}

/** The distinct unordered pairs of source locations of report races (live or offline), sorted. */
export function locationPairs(
  races: { current: { location: string }; previous: { location: string } }[],
): string[] {
  return [...new Set(races.map((r) => [r.current.location, r.previous.location].sort().join(' ~ ')))].sort();
}

/** Runs the CLI with `args` (and `input` on stdin); stdout and stderr as UTF-8. */
export function cli(args: string[], input?: string | Buffer) {
  return spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
}

/** The outcome of {@link cliAsync}. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed after the time limit. */
  killed: boolean;
}

/**
 * Runs the CLI with `args` in the repository's root without blocking, with `env` added to this process's environment;
 * resolves when it exits, or once `limitMs` have passed (then it is killed with every process it started).
 */
export function cliAsync(
  args: string[],
  limitMs?: number,
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // with a limit, the CLI runs in a process group of its own, killed whole (with the program it ran)
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      detached: limitMs !== undefined,
      env: { ...process.env, ...env },
    });
    let killed = false;
    const timer =
      limitMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = true;
            process.kill(-child.pid!, 'SIGKILL');
          }, limitMs);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

/**
 * `goldilocks run --on-race=report --report FILE` with `args` (options, then the program and its arguments) and `env`
 * added to the environment, which must exit 0. @returns its standard output and the JSON report (schema
 * docs/REPORT.md).
 */
export async function runReport(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; report: JsonReport }> {
  const file = tempPath('report.json');
  const r = await cliAsync(['run', '--on-race=report', '--report', file, ...args], undefined, env);
  assert.equal(r.code, 0, r.stderr);
  return { stdout: r.stdout, report: JSON.parse(readFileSync(file, 'utf8')) as JsonReport };
}

/** Runs `f`, which must throw a TraceError. @returns it. */
export function expectTraceError(f: () => unknown): TraceError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof TraceError, String(e));
    return e;
  }
  assert.fail('expected a TraceError');
}

/**
 * The events of `input` when fed to a TraceFeeder in chunks of the sizes `size()` gives, as readTrace does,
 * rendered in the extended format (prefixed by `line:` with `lineNumbers`), appended to `into` (default a new
 * array) as they come, so that a caller catching an error still has the events before it.
 * @returns the events and the longest unparsed rest carried between chunks.
 * @throws TraceError as the parser does.
 */
export function chunked(
  input: Buffer,
  size: () => number,
  options: {
    format?: Format;
    name?: string;
    batchSize?: number;
    lineNumbers?: boolean;
    into?: string[];
  } = {},
): { lines: string[]; longestRest: number } {
  const symbols = new Symbols();
  const lines: string[] = options.into ?? [];
  const feeder = new TraceFeeder(
    symbols,
    options.name ?? 'x.trace',
    (b) => {
      for (let i = 0; i < b.length; i++) {
        const text = formatEvent(symbols, b, i) ?? '';
        lines.push(options.lineNumbers ? `${b.line[i]}:${text}` : text);
      }
    },
    { batchSize: options.batchSize ?? 64, format: options.format },
  );
  let carry = Buffer.alloc(0);
  let longestRest = 0;
  for (let at = 0; at < input.length; ) {
    const chunk = input.subarray(at, Math.min(input.length, at + size()));
    at += chunk.length;
    carry = Buffer.from(feeder.feed(Buffer.concat([carry, chunk]), false));
    longestRest = Math.max(longestRest, carry.length);
  }
  feeder.end(carry);
  return { lines, longestRest };
}

/**
 * Asserts that a `--stats` text (of `check` or `run`) gives every check decision's share of the checks, in the order
 * of CHECK_DECISIONS, and that the shares sum to 100% (the paper's Table 1).
 */
export function assertDecisionShares(text: string): void {
  const shares = [...text.matchAll(/^ {2}(\w+) +[\d,]+ \(([\d.]+)% of checks\)$/gm)];
  assert.deepEqual(
    shares.map((m) => m[1]),
    ['shortCircuitXact', 'shortCircuitOwner', 'shortCircuitAlock', 'hbMemo', 'directTransfer', 'lockset'],
  );
  const total = shares.reduce((sum, m) => sum + Number(m[2]), 0);
  assert.ok(Math.abs(total - 100) < 0.5, `shares sum to ${total}`);
}
