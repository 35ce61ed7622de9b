/**
 * The transactional Multiset of Goldilocks (PLDI'07 §6.1, Table 3; the program is bench/stm/multiset.mjs) with 1, 2
 * and 4 workers, in three modes side by side:
 * - `plain`: `node bench/stm/multiset.mjs`;
 * - `goldilocks`: `goldilocks run`, transactions checked as commits (issue 23 §2: each commit one `commit(R, W)`
 *   synchronization event, its accesses checked with `xact`);
 * - `internals`: `goldilocks run` with `GOLDILOCKS_STM=internals` (src/live/stm-observer.ts): the STM reports no
 *   commit and uses the patched `Atomics`, so its version clock, ownership records and write-back are checked as the
 *   program's own synchronization and atomic accesses (what §6.1 calls analyzing "without taking transactions into
 *   account").
 *
 *   npm run bench:stm -- [--workers 1,2,4] [--ops N] [--capacity N] [--modes plain,goldilocks,internals]
 *                        [--repeat N] [--timeout S] [--out FILE] [--base REV]
 *
 * Every run is a fresh process; within a repetition the modes of one worker count run one after the other, and the
 * figures are each mode's fastest repetition. Printed as a Markdown table: the program's time (`ms`: from starting
 * the workers to the last one's exit), its ratio to plain, and the program's counts — shared accesses,
 * transactions, commits (transactions that wrote), aborts (attempts run again) — which vary with the interleaving;
 * for the detector modes also the accesses the runtime checked (`stats.accesses` of its JSON report) and its races
 * (the program is race-free: a race is a bug, and makes the exit code 1). `--base REV` also runs each detector mode
 * with git revision REV's build (bench/revision.ts) as `<mode>@base`, with that build's STM (the program loads
 * `goldilocks/stm` from the build it runs under: GOLDILOCKS_BENCH_DIST).
 */
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';

const PROGRAM = path.join(ROOT, 'bench', 'stm', 'multiset.mjs');
const MODES = ['plain', 'goldilocks', 'internals'];
const BASE = '@base';

const USAGE = `usage: npm run bench:stm -- [options]
  --workers N,N      worker counts (default 1,2,4)
  --ops N            operations per worker (default 20000)
  --capacity N       slots of the multiset (default 10, the paper's)
  --modes A,B        of ${MODES.join(', ')} (default all)
  --repeat N         fastest of N repetitions (default 1)
  --timeout S        kill a run after S seconds (default 600)
  --out FILE         append the Markdown report to FILE
  --base REV         also run the detector modes with git revision REV's build, as <mode>@base
`;

/** The program's result line (bench/stm/multiset.mjs). */
interface Result {
  workers: number;
  ms: number;
  accesses: number;
  transactions: number;
  commits: number;
  aborts: number;
}

interface Run {
  mode: string;
  workers: number;
  result?: Result;
  /** `stats.accesses` and `summary.racyVariables` of the runtime's JSON report. */
  checked?: number;
  races?: number;
  error?: string;
}

/** `node args` in ROOT with `env`; stdout, stderr and the exit code. */
function node(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 26 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** One run of `mode` (`plain`, `goldilocks`, `internals`, or one of those with `@base`) with `workers` workers. */
async function runOnce(
  mode: string,
  workers: number,
  opts: { ops: number; capacity: number; timeoutMs: number; dists: Record<string, string> },
): Promise<Run> {
  const base = mode.endsWith(BASE);
  const dist = base ? opts.dists.base : opts.dists.current;
  const program = [PROGRAM, '--workers', String(workers), '--ops', String(opts.ops)];
  program.push('--capacity', String(opts.capacity));
  const env: NodeJS.ProcessEnv = { ...process.env, GOLDILOCKS_BENCH_DIST: dist };
  delete env.GOLDILOCKS_STM;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-bench-stm-'));
  const report = path.join(dir, 'report.json');
  try {
    const detector = base ? mode.slice(0, -BASE.length) : mode;
    if (detector === 'internals') env.GOLDILOCKS_STM = 'internals';
    const args =
      detector === 'plain'
        ? program
        : [path.join(dist, 'cli', 'main.js'), 'run', '--on-race=report', '--report', report, ...program];
    const r = await node(args, env, opts.timeoutMs);
    const run: Run = { mode, workers };
    const line = r.stdout
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('{"bench":"stm-multiset"'));
    if (line !== undefined) run.result = JSON.parse(line) as Result;
    if (r.code !== 0 || line === undefined)
      run.error = `exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`;
    if (existsSync(report)) {
      const j = JSON.parse(readFileSync(report, 'utf8')) as {
        summary: { racyVariables: number };
        stats: Record<string, number>;
      };
      run.checked = j.stats.accesses;
      run.races = j.summary.racyVariables;
    }
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const grouped = (n: number | undefined): string =>
  n === undefined ? '–' : String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');

/** The Markdown table of the fastest run of each mode × workers. */
function table(best: Map<string, Run>, modes: string[], workers: number[]): string {
  const rows = [
    '| workers | mode | time (ms) | × plain | accesses | transactions | commits | aborts | checked | races |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const w of workers) {
    const plain = best.get(`plain ${w}`)?.result?.ms;
    for (const m of modes) {
      const run = best.get(`${m} ${w}`);
      const r = run?.result;
      if (run === undefined) continue;
      if (r === undefined) {
        rows.push(`| ${w} | ${m} | failed: ${run.error ?? ''} | | | | | | | |`);
        continue;
      }
      const ratio = plain !== undefined && plain > 0 ? (r.ms / plain).toFixed(2) : '–';
      rows.push(
        `| ${w} | ${m} | ${r.ms.toFixed(0)} | ${ratio} | ${grouped(r.accesses)} | ${grouped(r.transactions)} | ` +
          `${grouped(r.commits)} | ${grouped(r.aborts)} | ${grouped(run.checked)} | ${run.races ?? '–'} |`,
      );
    }
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '1,2,4' },
      ops: { type: 'string', default: '20000' },
      capacity: { type: 'string', default: '10' },
      modes: { type: 'string', default: MODES.join(',') },
      repeat: { type: 'string', default: '1' },
      timeout: { type: 'string', default: '600' },
      out: { type: 'string' },
      base: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const positive = (s: string, name: string): number => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: not a positive integer: ${s}\n${USAGE}`);
    return n;
  };
  const workers = values.workers.split(',').map((s) => positive(s, 'workers'));
  const modes = values.modes.split(',');
  for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: unknown mode ${m}\n${USAGE}`);
  const dists: Record<string, string> = { current: path.join(ROOT, 'dist'), base: '' };
  const all = [...modes];
  if (values.base !== undefined) {
    dists.base = buildRevision(values.base).dist;
    for (const m of modes) if (m !== 'plain') all.splice(all.indexOf(m) + 1, 0, `${m}${BASE}`);
  }
  const opts = {
    ops: positive(values.ops, 'ops'),
    capacity: positive(values.capacity, 'capacity'),
    timeoutMs: positive(values.timeout, 'timeout') * 1000,
    dists,
  };
  const best = new Map<string, Run>();
  let failed = false;
  for (let rep = 0; rep < positive(values.repeat, 'repeat'); rep++)
    for (const w of workers)
      for (const m of all) {
        const run = await runOnce(m, w, opts);
        process.stderr.write(
          `${m} ${w} worker(s): ${run.result ? `${run.result.ms} ms` : `failed (${run.error})`}${run.races ? `, ${run.races} races` : ''}\n`,
        );
        if (run.error !== undefined || (run.races ?? 0) > 0) failed = true;
        const key = `${m} ${w}`;
        const old = best.get(key);
        if (old?.result === undefined || (run.result !== undefined && run.result.ms < old.result.ms))
          best.set(key, run);
      }
  const text = [
    `### Transactional Multiset (PLDI'07 §6.1), ${opts.ops} operations per worker, capacity ${opts.capacity}`,
    '',
    `${describeMachine()}; fastest of ${values.repeat} run(s).${values.base ? ` Base: ${values.base}.` : ''}`,
    '',
    table(best, all, workers),
    '',
  ].join('\n');
  process.stdout.write(`${text}\n`);
  if (values.out !== undefined) appendFileSync(values.out, `${text}\n`);
  if (failed) process.exitCode = 1;
}

await main();
