/**
 * Whole-command timing for the benchmarks that compare commands side by side (bench/rapid.ts, bench/programs.ts):
 * wall seconds measured here, processor seconds and peak resident set from GNU time (`/usr/bin/time`) where present;
 * and the median the benchmarks report (those two, bench/bench.ts, bench/runtime.ts).
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
}

/**
 * Runs `cmd args` to completion, its stdout kept.
 * @param ok whether an exit status is a success (default: 0 only).
 * @throws Error naming the command, its status and the end of its stderr, when the status is not `ok`.
 */
export function timed(
  cmd: string,
  args: string[],
  ok: (status: number | null) => boolean = (s) => s === 0,
): Run {
  const tmp = path.join(os.tmpdir(), `goldilocks-time-${process.pid}`);
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync(TIME, ['-f', '%e %M %U %S', '-o', tmp, cmd, ...args], {
        maxBuffer: 1 << 28,
        encoding: 'utf8',
      })
    : spawnSync(cmd, args, { maxBuffer: 1 << 28, encoding: 'utf8' });
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
  return { seconds, cpuSeconds, rssMiB, stdout: r.stdout };
}

/** The median of `xs` (not empty). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}
