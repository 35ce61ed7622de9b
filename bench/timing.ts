/**
 * Whole-command timing for the benchmarks that compare commands side by side (bench/rapid.ts, bench/programs.ts):
 * wall seconds measured here, processor seconds and peak resident set from GNU time (`/usr/bin/time`) where present,
 * in an environment without the host's `NODE_EXTRA_CA_CERTS` by default ({@link timedEnv}); and the median the
 * benchmarks report (those two, bench/bench.ts, bench/runtime.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TIME = '/usr/bin/time';
/** Whether GNU time is present (else {@link Run} `cpuSeconds` and `rssMiB` are NaN). */
export const hasTime = existsSync(TIME);

/** One timed run of a command. */
export interface Run {
  /** Wall seconds, start to exit. */
  seconds: number;
  /** User plus system processor seconds (NaN without /usr/bin/time). */
  cpuSeconds: number;
  /** Peak resident set, MiB (NaN without /usr/bin/time). */
  rssMiB: number;
  stdout: string;
  /** The exit status (null when a signal ended it: see `signal`), for a caller whose `ok` accepts a failure. */
  status: number | null;
  signal: NodeJS.Signals | null;
  /** The end of its stderr (500 characters). */
  stderrTail: string;
}

/**
 * The variable the timed commands run without unless asked to keep it ({@link timedEnv}): Node reads and parses every
 * certificate of the file it names as each process starts (`node::crypto::UseExtraCaCerts`, before any of the
 * command's code runs): about 30 ms of each start on this project's machine, whose network set-up sets it (`perf
 * record` of `node` on an empty script: 0.04–0.05 s with it, 0.01–0.02 s without). A cost of the host's
 * configuration, not of the command timed: no command timed here opens a TLS connection, and Java (RAPID) does not
 * read it.
 */
const EXTRA_CA_CERTS = 'NODE_EXTRA_CA_CERTS';

/** The environment of timed commands: this process's, without {@link EXTRA_CA_CERTS} unless `keep`. */
export function timedEnv(keep: boolean): NodeJS.ProcessEnv {
  if (keep) return process.env;
  const env = { ...process.env };
  delete env[EXTRA_CA_CERTS];
  return env;
}

/** A benchmark's note on {@link EXTRA_CA_CERTS}: set and dropped (or kept) for the timed commands; undefined if unset. */
export function timedEnvNote(keep: boolean): string | undefined {
  if (process.env[EXTRA_CA_CERTS] === undefined) return undefined;
  return keep
    ? `${EXTRA_CA_CERTS} is set here and kept: each Node process parses its certificates as it starts.`
    : `${EXTRA_CA_CERTS} is set here and dropped for the timed commands (bench/timing.ts; ` +
        '--keep-extra-ca-certs keeps it): Node parses its certificates as each process starts, ~30 ms here.';
}

/**
 * Runs `cmd args` to completion, its stdout kept.
 * @param ok whether an exit status is a success (default: 0 only).
 * @param env its environment (default: {@link timedEnv}`(false)`).
 * @throws Error naming the command, its status and the end of its stderr, when the status is not `ok`.
 */
export function timed(
  cmd: string,
  args: string[],
  ok: (status: number | null) => boolean = (s) => s === 0,
  env: NodeJS.ProcessEnv = timedEnv(false),
): Run {
  const tmp = path.join(os.tmpdir(), `goldilocks-time-${process.pid}`);
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync(TIME, ['-f', '%e %M %U %S', '-o', tmp, cmd, ...args], {
        maxBuffer: 1 << 28,
        encoding: 'utf8',
        env,
      })
    : spawnSync(cmd, args, { maxBuffer: 1 << 28, encoding: 'utf8', env });
  const seconds = (performance.now() - t0) / 1000;
  if (!ok(r.status))
    throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status ?? r.signal}: ${r.stderr.slice(-500)}`);
  let rssMiB = Number.NaN;
  let cpuSeconds = Number.NaN;
  if (hasTime) {
    const [, kb, user, sys] = readFileSync(tmp, 'utf8').trim().split('\n').at(-1)!.split(' ');
    rssMiB = Number(kb) / 1024;
    cpuSeconds = Number(user) + Number(sys);
    rmSync(tmp, { force: true });
  }
  return {
    seconds,
    cpuSeconds,
    rssMiB,
    stdout: r.stdout,
    status: r.status,
    signal: r.signal,
    stderrTail: r.stderr.slice(-500),
  };
}

/**
 * The order of `n` commands in repetition `r` of a side-by-side benchmark: 0..n-1 rotated by `r`, so that over `n`
 * repetitions each command runs once right after each other one. Run right after RAPID's JVM (about 3 s on both
 * cores, 0.5 GiB), `goldilocks check` of the 2M-event realistic trace took 0.31–0.34 s (median 0.32) against 0.29–0.31
 * s (0.30) with RAPID left out, on a quiet host (`npm run bench:rapid -- --events 2M --reps 5 --base df09b45`, with and
 * without `--rapid`); in a fixed order such a slowdown falls on one command in every repetition.
 */
export function rotation(n: number, r: number): number[] {
  return Array.from({ length: n }, (_, k) => (k + r) % n);
}

/** The median of `xs` (not empty). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}
