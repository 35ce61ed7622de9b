/**
 * Partially-eager evaluation (PLDI'07 §5.4) with thousands of distinct starts, this build against a base:
 *
 *   npm run bench:eager -- [--buckets 2000,4000,8000] [--workers W] [--base REV] [--repeat R] [--timeout S]
 *
 * Runs `goldilocks run --stats bench/eager/buckets.mjs N W` (one thread, or with `--workers` W ≥ 1 that many
 * workers, over N buckets of a fine-grained-locking map, as sharedmap's `map()` and test.js: see that file) for each
 * N, with this checkout's `dist/` and, given `--base`, git revision REV's build (bench/revision.ts), the two
 * alternating, `--repeat` R times each (default 1). Prints a markdown table: the program's own time (ms) per build
 * (with R > 1 the median and, in parentheses, the range: with workers a run's time varies with the interleaving), the
 * ratio of the medians, and of this build's last run's `--stats` the collections (`eagerRuns`), the Infos moved
 * (`eagerInfos`) and the lockset walks (`walks`). A run
 * past `--timeout` seconds (default 600) is killed with its program (its process group) and shown as such. A timing benchmark: run it on a quiet machine
 * (`npm run build` first).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';
import { median } from './timing.js';

const PROGRAM = path.join(ROOT, 'bench', 'eager', 'buckets.mjs');

interface Run {
  ms: number | null;
  eagerRuns: string;
  eagerInfos: string;
  walks: string;
}

/**
 * One run of the program under `goldilocks run --stats` of the CLI `cli`, in a process group of its own: past
 * `timeoutS` the whole group is killed (a build's CLI may not pass a signal on to the program it runs, which would then
 * go on after the benchmark).
 */
async function once(cli: string, buckets: number, workers: number, timeoutS: number): Promise<Run> {
  const child = spawn(process.execPath, [cli, 'run', '--stats', PROGRAM, String(buckets), String(workers)], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
    out += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-(child.pid as number), 'SIGKILL');
  }, timeoutS * 1000);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearTimeout(timer);
  const stat = (name: string) => out.match(new RegExp(`^\\s*${name}\\s+([\\d,]+)`, 'm'))?.[1] ?? '–';
  const line = stdout.split('\n').find((l) => l.startsWith('{"buckets"'));
  if (line === undefined && !timedOut)
    throw new Error(`no result line (exit ${status}):\n${out.slice(-2000)}`);
  return {
    ms: line === undefined ? null : (JSON.parse(line) as { ms: number }).ms,
    eagerRuns: stat('eagerRuns'),
    eagerInfos: stat('eagerInfos'),
    walks: stat('walks'),
  };
}

/** The runs' times in ms, a timed-out run as +∞. */
const timesOf = (runs: Run[]): number[] => runs.map((r) => r.ms ?? Number.POSITIVE_INFINITY);

/** base / this of the medians, or a lower bound when the base timed out. */
function ratioOf(base: number, mine: number, timeoutS: number): string {
  if (mine === Number.POSITIVE_INFINITY) return '–';
  if (base === Number.POSITIVE_INFINITY) return `> ${((timeoutS * 1000) / mine).toFixed(1)}`;
  return (base / mine).toFixed(1);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      buckets: { type: 'string', default: '2000,4000,8000' },
      workers: { type: 'string', default: '0' },
      base: { type: 'string' },
      timeout: { type: 'string', default: '600' },
      repeat: { type: 'string', default: '1' },
    },
  });
  const repeat = Number(values.repeat);
  const sizes = values.buckets.split(',').map(Number);
  const timeoutS = Number(values.timeout);
  const workers = Number(values.workers);
  const builds: [string, string][] = [['this build', path.join(ROOT, 'dist', 'cli', 'main.js')]];
  if (values.base !== undefined)
    builds.push([`base ${values.base}`, path.join(buildRevision(values.base).dist, 'cli', 'main.js')]);
  const ms = (m: number) => (m === Number.POSITIVE_INFINITY ? `> ${timeoutS * 1000}` : String(m));
  const fmt = (runs: Run[]) => {
    const t = timesOf(runs);
    return t.length === 1 ? ms(t[0]) : `${ms(median(t))} (${ms(Math.min(...t))}–${ms(Math.max(...t))})`;
  };
  console.log(
    `bench/eager/buckets.mjs N ${workers} under goldilocks run --stats (${workers === 0 ? 'the main thread alone' : `${workers} workers`}; ${os.cpus().length} cpus)\n`,
  );
  console.log(
    `| buckets | ${builds.map(([b]) => `${b} ms`).join(' | ')} |${builds.length > 1 ? ' base / this |' : ''} eagerRuns | eagerInfos | walks |`,
  );
  console.log(
    `|---:|${builds.map(() => '---:|').join('')}${builds.length > 1 ? '---:|' : ''}---:|---:|---:|`,
  );
  for (const n of sizes) {
    const runs: Run[][] = builds.map(() => []);
    for (let r = 0; r < repeat; r++)
      for (const [b, [, cli]] of builds.entries()) runs[b].push(await once(cli, n, workers, timeoutS));
    const [mine, base] = runs;
    const last = mine[mine.length - 1];
    const ratio =
      base === undefined ? '' : ` ${ratioOf(median(timesOf(base)), median(timesOf(mine)), timeoutS)} |`;
    console.log(
      `| ${n} | ${runs.map(fmt).join(' | ')} |${ratio} ${last.eagerRuns} | ${last.eagerInfos} | ${last.walks} |`,
    );
  }
}

await main();
