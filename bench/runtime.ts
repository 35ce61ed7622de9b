/**
 * Live-runtime benchmark: the Java Grande kernels of bench/kernels/ (JavaScript worker programs over
 * SharedArrayBuffers) run plain (`node kernel.mjs`) and under `goldilocks run --detector D`, side by side.
 *
 *   npm run bench:runtime -- [--kernels sor,lufact,...] [--workers 2,4] [--size tiny|small|medium|large]
 *                            [--modes plain,goldilocks,fasttrack,eraser,goldilocks+history] [--repeat N] [--timeout S] [--shadow-limit MiB]
 *                            [--no-verify] [--json FILE] [--out FILE] [--base REV] [--fixed-size S]
 *
 * Every run is a fresh process. Within a repetition the modes of one kernel × workers run one after the other,
 * so that they are measured side by side; the figures are the minimum over the repetitions. Measured per run:
 * the kernel's own time (its `ms`: from starting the workers to the last one's exit, without data set-up and
 * without the check against a sequential computation), the process's wall time, and its peak RSS (the preload
 * bench/maxrss-preload.mjs, passed through NODE_OPTIONS, writes `process.resourceUsage().maxRSS` at exit; worker
 * threads are included). Detector modes also pass `--report FILE`; from the JSON report the benchmark reads
 * `summary.racyVariables` (the kernels are race-free: a race from a precise detector is flagged and makes the
 * exit code 1) and, for goldilocks, `stats`: the share of checks each short-circuit decided (the paper's
 * Table 1). A mode that fails is reported and skipped, not fatal. `--help` lists every option.
 *
 * `--base REV` runs every detector mode also with git revision REV's build (compiled by bench/revision.ts), as mode
 * `D@base` right after mode `D` in each repetition: the build before a change and the build after it, side by side
 * in one run, with the ratio of their kernel times per kernel × workers and its median.
 *
 * `--fixed-size S` runs every detector mode once more per kernel × workers at size S (smaller than `--size`), after
 * the repetitions, and splits the shadow memory (heap + resident filters, see {@link shadowTable}) into its part per
 * shared byte and its fixed part: shadow is taken as `slope × shared bytes + fixed`, through the two sizes' points
 * (slope = Δshadow / Δshared in B/B, fixed = shadow − slope × shared in KiB). Both figures are measured, not modelled
 * apart: a part that grows other than linearly with the size (Info records by access pattern, freed records kept
 * at the pools' high-water mark) shows in both, which is why they come from two sizes of the same kernel.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';
import { median } from './timing.js';

const KERNELS = ['series', 'lufact', 'sor', 'crypt', 'moldyn', 'raytracer', 'montecarlo'];
const DETECTORS = ['goldilocks', 'fasttrack', 'djit', 'eraser'];
const DEFAULT_MODES = 'plain,goldilocks,fasttrack,eraser';
/** Detectors whose verdict is exact: a race they report on these race-free kernels is a bug. */
const PRECISE = new Set(['goldilocks', 'fasttrack', 'djit']);
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const PRELOAD = path.join(ROOT, 'bench', 'maxrss-preload.mjs');

const USAGE = `usage: npm run bench:runtime -- [options]
  --kernels A,B      kernels of bench/kernels/ (default ${KERNELS.join(',')})
  --workers N,N      worker counts (default 2,4)
  --size S           tiny | small | medium | large (default small; large: at least 512 MiB shared)
  --shadow-limit M   goldilocks run --shadow-limit M (MiB) for the detector modes (not the --base ones)
  --modes A,B        plain and detectors of 'goldilocks run' (default ${DEFAULT_MODES}; also djit; D+history:
                     D with --history, compared with D)
  --repeat N         minimum over N repetitions (default 1); the modes are interleaved within a repetition
  --timeout S        kill a run after S seconds (default 600)
  --no-verify        skip the kernels' check against a sequential computation (done by default on tiny, small)
  --json FILE        also write every run and the summary as JSON
  --out FILE         append the Markdown report to FILE
  --base REV         also run each detector mode with git revision REV's build, as mode D@base (side by side)
  --fixed-size S     also run each detector mode once at size S (smaller than --size): the shadow memory split
                     into a part per shared byte (B/B) and a fixed part (KiB), from the two sizes
`;

interface KernelLine {
  kernel: string;
  workers: number;
  size: string;
  checksum: number;
  ms: number;
  sharedBytes: number;
  verified: boolean;
}

/** One process run. */
interface Run {
  kernel: string;
  workers: number;
  mode: string;
  repetition: number;
  /** The kernel's result line; undefined when it printed none (failed). */
  result?: KernelLine;
  wallMs: number;
  maxRSSKiB?: number;
  exitCode: number | null;
  /** Why the run counts as failed (it printed no result line). */
  error?: string;
  /** It printed its result but exited with another code than 0 (e.g. `goldilocks run` on a race). */
  warning?: string;
  /** From the detector's report, when it wrote one. */
  racyVariables?: number;
  racyNames?: string[];
  stats?: Record<string, number>;
}

/** All runs of one kernel × workers × mode. */
interface Cell {
  kernel: string;
  workers: number;
  mode: string;
  runs: Run[];
  /** Set on the first failure; the cell is not run again. */
  failed?: string;
}

function list(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

function positive(s: string, name: string): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: not a positive integer: ${s}`);
  return n;
}

/**
 * The command of one run: `node <kernel> ...` or `node dist/cli/main.js run --detector D --report F -- <kernel> ...`;
 * an imprecise detector (eraser) runs with `--on-race=report`: its false alarms on these race-free kernels must not
 * stop them (they are counted), where a precise detector's race is a bug.
 */
function command(mode: string, kernelArgs: string[], report: string): string[] {
  if (mode === 'plain') return kernelArgs;
  const detector = detectorOf(mode);
  const onRace = PRECISE.has(detector) ? [] : ['--on-race=report'];
  const cli = mode.endsWith(BASE) ? baseCli : CLI;
  const limit = shadowLimit === undefined || mode.endsWith(BASE) ? [] : ['--shadow-limit', shadowLimit];
  const history = mode.endsWith(HISTORY) ? ['--history'] : [];
  return [
    cli,
    'run',
    '--detector',
    detector,
    ...onRace,
    ...limit,
    ...history,
    '--report',
    report,
    ...kernelArgs,
  ];
}

/** `--shadow-limit` of the detector modes (MiB), when given. */
let shadowLimit: string | undefined;

/** Suffix of a mode run with the `--base` revision's build. */
const BASE = '@base';
/** The `--base` revision's CLI (set in main when given). */
let baseCli = CLI;
/** Suffix of a mode run with `--history` (each access keeps its stack: the cost of the option, issue 25 §1). */
const HISTORY = '+history';
/** The detector of a mode (`fasttrack@base` → `fasttrack`, `goldilocks+history` → `goldilocks`). */
const detectorOf = (mode: string): string => mode.replace(/(@base|\+history)$/, '');

interface Spawned {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  timedOut: boolean;
}

/** Process group of the run under way: its own group, so an interrupt of the benchmark must end it too. */
let running: number | undefined;
process.on('SIGINT', () => {
  if (running !== undefined) killGroup(running);
  process.exit(130);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs `node args` in ROOT (in its own process group, so that a timeout kills what it spawned too). */
function spawnNode(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running = child.pid;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killGroup(child.pid);
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.length > 1 << 20) stdout = stdout.slice(-(1 << 19));
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (stderr.length > 1 << 16) stderr = stderr.slice(-(1 << 15));
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running = undefined;
      resolve({ code, signal, stdout, stderr, wallMs: performance.now() - t0, timedOut });
    });
  });
}

function lastLines(s: string, n: number): string {
  return s.trim().split('\n').slice(-n).join(' / ');
}

/** The kernel's result line among the lines of stdout (a detector may print its own output too). */
function kernelLine(stdout: string, kernel: string): KernelLine | undefined {
  for (const line of stdout.split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    try {
      const j = JSON.parse(line) as KernelLine;
      if (j.kernel === kernel && typeof j.ms === 'number') return j;
    } catch {
      // not the kernel's line
    }
  }
  return undefined;
}

/**
 * Peak RSS from the preload's lines: the process whose script is the kernel (under `goldilocks run`, the CLI
 * process writes a line too), else the largest.
 */
function peakRSS(file: string, kernelFile: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { script: string; maxRSSKiB: number });
  const own = lines.filter((l) => path.resolve(l.script) === kernelFile);
  const pick = own.length > 0 ? own : lines;
  return pick.length === 0 ? undefined : Math.max(...pick.map((l) => l.maxRSSKiB));
}

async function runOnce(
  kernel: string,
  workers: number,
  mode: string,
  repetition: number,
  opts: { size: string; verify: boolean; timeoutMs: number },
): Promise<Run> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-bench-'));
  try {
    const kernelFile = path.join(ROOT, 'bench', 'kernels', `${kernel}.mjs`);
    const rssFile = path.join(dir, 'maxrss.jsonl');
    const reportFile = path.join(dir, 'report.json');
    const kernelArgs = [kernelFile, '--workers', String(workers), '--size', opts.size];
    if (!opts.verify) kernelArgs.push('--no-verify');
    const env = {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(PRELOAD).href}`.trim(),
      GOLDILOCKS_BENCH_MAXRSS: rssFile,
    };
    const r = await spawnNode(command(mode, kernelArgs, reportFile), env, opts.timeoutMs);
    const run: Run = { kernel, workers, mode, repetition, wallMs: r.wallMs, exitCode: r.code };
    run.result = kernelLine(r.stdout, kernel);
    run.maxRSSKiB = peakRSS(rssFile, kernelFile);
    if (existsSync(reportFile)) {
      try {
        const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
          summary?: { racyVariables?: number };
          racyVariables?: string[];
          stats?: Record<string, number>;
        };
        run.racyVariables = report.summary?.racyVariables;
        run.racyNames = report.racyVariables;
        run.stats = report.stats;
      } catch (e) {
        process.stderr.write(`${kernel} ${mode}: unreadable report: ${(e as Error).message}\n`);
      }
    }
    const cause = r.timedOut
      ? `timed out after ${opts.timeoutMs / 1000} s`
      : r.signal
        ? `killed by ${r.signal}`
        : `exit ${r.code}`;
    if (run.result === undefined)
      run.error = `${cause}${r.stderr.trim() ? `: ${lastLines(r.stderr, 3)}` : ''}`;
    else if (r.code !== 0)
      run.warning = `${cause} after printing its result${r.stderr.trim() ? `: ${lastLines(r.stderr, 2)}` : ''}`;
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Is `goldilocks run` there (built, and the subcommand exists)? undefined if so, else why not. */
async function runUnavailable(): Promise<string | undefined> {
  if (!existsSync(CLI)) return `${path.relative(ROOT, CLI)} is absent (npm run build)`;
  // `run --help` is no test: commander answers an unknown command's --help with the general help, exit 0
  const r = await spawnNode([CLI, '--help'], process.env, 30_000);
  if (r.code !== 0) return `'goldilocks --help' fails (${lastLines(r.stderr, 1)})`;
  return /^\s+run\b/m.test(r.stdout) ? undefined : "'goldilocks --help' lists no 'run' command";
}

function min(xs: number[]): number | undefined {
  return xs.length === 0 ? undefined : Math.min(...xs);
}

/** The median of `xs` ({@link median}), undefined when it is empty. */
const medianOf = (xs: number[]): number | undefined => (xs.length === 0 ? undefined : median(xs));

/** The figures of a cell: minima over its successful runs. */
function figures(cell: Cell | undefined) {
  const ok = (cell?.runs ?? []).filter((r) => r.result !== undefined);
  return {
    ok: ok.length > 0 && cell?.failed === undefined,
    ms: min(ok.map((r) => r.result!.ms)),
    wallMs: min(ok.map((r) => r.wallMs)),
    rssKiB: min(ok.filter((r) => r.maxRSSKiB !== undefined).map((r) => r.maxRSSKiB!)),
    sharedBytes: ok[0]?.result?.sharedBytes,
  };
}

const pct = (n: number | undefined, d: number) =>
  n === undefined ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`;
const mib = (kib: number | undefined) => (kib === undefined ? '' : (kib / 1024).toFixed(0));
const ratio = (x: number) => `${x.toFixed(x >= 10 ? 0 : 1)}×`;

/**
 * The shadow memory table (issue 24 §1: memory stated per shared byte, plus a fixed part), from the report's `stats`
 * of each detector mode's first successful run: per shared byte, the shadow heap's high-water mark (`shadowKiB`:
 * word tables, Info records, locksets, freed records kept for reuse), of which the word tables and the Info records
 * linked from them (`shadowTableKiB`, `shadowInfoKiB`, `src/live/shadow/census.ts`), and the same-epoch filters the
 * threads allocated (`filterBytes`) and the pages of them they wrote (`filterResidentBytes`,
 * `src/live/filter-census.ts`: what the filters cost in RSS); `shadow` = heap + resident filters (heap + allocated
 * filters for a build that does not report the resident part). The rest of
 * the RSS above plain is the fixed part (runtime code, the workers' larger heaps), in MiB. A figure the build does
 * not report (a `--base` build before the census) is left empty.
 */
/**
 * A detector run's shadow memory from its report's `stats` ({@link shadowTable}): `heap`, the shadow heap's
 * high-water mark, and `total`, heap + resident filters (allocated filters where the build does not report the
 * resident part; undefined where it reports neither), in bytes; undefined before the census.
 */
function shadowBytes(
  stats: Record<string, number> | undefined,
): { heap: number; total?: number } | undefined {
  if (stats?.shadowKiB === undefined) return undefined;
  const heap = stats.shadowKiB * 1024;
  const resident = stats.filterResidentBytes ?? stats.filterBytes;
  return { heap, total: resident === undefined ? undefined : heap + resident };
}

/** The stats of a cell's first successful run. */
const statsOf = (cell: Cell | undefined) =>
  cell?.runs.find((r) => r.stats !== undefined && r.result !== undefined)?.stats;

function shadowTable(
  kernels: string[],
  workerCounts: number[],
  detectors: string[],
  get: (k: string, w: number, m: string) => Cell | undefined,
): string[] {
  const rows: string[] = [];
  const bb = (bytes: number | undefined, shared: number) =>
    bytes === undefined || Number.isNaN(bytes) ? '' : (bytes / shared).toFixed(2);
  for (const k of kernels)
    for (const w of workerCounts) {
      const plain = figures(get(k, w, 'plain'));
      for (const d of detectors) {
        const cell = get(k, w, d);
        const f = figures(cell);
        const stats = statsOf(cell);
        const shared = f.sharedBytes;
        const shadow = shadowBytes(stats);
        if (!f.ok || stats === undefined || shadow === undefined || !shared) continue;
        const kib = (x: number | undefined) => (x === undefined ? undefined : x * 1024);
        const { heap, total } = shadow;
        const filters = stats.filterBytes;
        const above =
          plain.ok && f.rssKiB !== undefined && plain.rssKiB !== undefined
            ? (f.rssKiB - plain.rssKiB) * 1024
            : undefined;
        const fixed = above === undefined ? '' : ((above - (total ?? heap)) / 2 ** 20).toFixed(0);
        rows.push(
          `| ${k} | ${w} | ${d} | ${bb(heap, shared)} | ${bb(kib(stats.shadowTableKiB), shared)} | ` +
            `${bb(kib(stats.shadowInfoKiB), shared)} | ${bb(filters, shared)} | ${bb(stats.filterResidentBytes, shared)} | ${total === undefined ? '' : `**${bb(total, shared)}**`} | ` +
            `${bb(above, shared)} | ${fixed} |`,
        );
      }
    }
  if (rows.length === 0) return [];
  return [
    '',
    "Shadow memory per byte of shared data (B/B, from the report's `stats`): the shadow heap's high-water mark " +
      '(heap), of which the word tables (tables) and the Info records linked from them at exit (Infos); the ' +
      'same-epoch filters the threads allocated (filters) and the pages of them they wrote (resident); shadow = ' +
      'heap + resident filters (allocated where a build does not report them); the RSS above plain per shared ' +
      'byte; and the rest of the RSS above plain, the fixed part (MiB).',
    '',
    '| kernel | workers | mode | heap B/B | tables B/B | Infos B/B | filters B/B | resident filters B/B | shadow B/B | RSS above plain B/B | rest MiB |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}

/**
 * The shadow memory split into its part per shared byte and its fixed part (`--fixed-size`, see the file header):
 * per kernel × workers × detector mode, the shadow (heap + resident filters, {@link shadowBytes}) at the fixed size
 * and at `--size`, and the line through the two points.
 */
function slopeTable(
  kernels: string[],
  workerCounts: number[],
  detectors: string[],
  get: (k: string, w: number, m: string) => Cell | undefined,
  second: { size: string; cells: Map<string, Cell> },
  size: string,
): string[] {
  const rows: string[] = [];
  for (const k of kernels)
    for (const w of workerCounts)
      for (const d of detectors) {
        const big = get(k, w, d);
        const small = second.cells.get(`${k}/${w}/${d}`);
        const b = shadowBytes(statsOf(big))?.total;
        const a = shadowBytes(statsOf(small))?.total;
        const xb = figures(big).sharedBytes;
        const xa = figures(small).sharedBytes;
        if (a === undefined || b === undefined || !xa || !xb || xb === xa) continue;
        const slope = (b - a) / (xb - xa);
        const fixed = b - slope * xb;
        rows.push(
          `| ${k} | ${w} | ${d} | ${(xa / 1024).toFixed(0)} | ${(a / 1024).toFixed(0)} | ${(xb / 1024).toFixed(0)} | ` +
            `${(b / 1024).toFixed(0)} | **${slope.toFixed(2)}** | ${(fixed / 1024).toFixed(0)} |`,
        );
      }
  if (rows.length === 0) return [];
  return [
    '',
    `Shadow memory (heap + resident filters) at two sizes, ${second.size} and ${size}, one run each: shadow = ` +
      'per byte × shared + fixed, through the two points (per byte in B/B, fixed in KiB; a negative fixed part: ' +
      'the shadow grows faster than linearly between the sizes).',
    '',
    `| kernel | workers | mode | shared KiB (${second.size}) | shadow KiB | shared KiB (${size}) | shadow KiB | per byte B/B | fixed KiB |`,
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}

/**
 * Table 1 of the paper from the live goldilocks's stats (docs/RUNTIME.md "The check"): all element accesses, the
 * share decided by the same-epoch filter, then the Info checks of the word checks and the share decided by each
 * short-circuit, the happens-before memo, and full lockset walks.
 */
function shortCircuits(stats: Record<string, number> | undefined): string[] {
  const checks = stats?.checks;
  if (stats === undefined || checks === undefined) return Array<string>(9).fill('n/a');
  const accesses = (stats.sameEpoch ?? 0) + stats.accesses;
  const decisions = [
    stats.shortCircuitOwner,
    stats.shortCircuitAlock,
    stats.hbMemo ?? stats.memo, // `memo` before the counters took the offline names (issue 21)
    stats.directTransfer ?? 0,
    stats.lockset,
  ];
  return [
    accesses.toLocaleString('en-US'),
    pct(stats.sameEpoch, accesses),
    checks.toLocaleString('en-US'),
    ...decisions.map((n) => (checks === 0 ? 'n/a' : pct(n, checks))),
  ];
}

function report(
  cells: Map<string, Cell>,
  kernels: string[],
  workerCounts: number[],
  modes: string[],
  opts: {
    size: string;
    repeat: number;
    wallMs: number;
    skipped: string[];
    second?: { size: string; cells: Map<string, Cell> };
  },
): { md: string; racy: string[]; medians: Record<string, number | undefined> } {
  const get = (k: string, w: number, m: string) => cells.get(`${k}/${w}/${m}`);
  const detectors = modes.filter((m) => m !== 'plain');
  const lines: string[] = [];
  lines.push(`## Live runtime on the Java Grande kernels, ${new Date().toISOString()}`, '');
  lines.push(`Machine: ${describeMachine()}.`);
  lines.push(
    `\`npm run bench:runtime -- ${process.argv.slice(2).join(' ')}\`: size ${opts.size}, ` +
      `minimum of ${opts.repeat} run${opts.repeat > 1 ? 's' : ''} (modes interleaved), ` +
      `wall time of the benchmark ${(opts.wallMs / 1000).toFixed(0)} s.`,
  );
  lines.push(
    "ms: the kernel's own time, from starting the workers to the last one's exit (no data set-up, no check); " +
      '×: against plain `node`; MiB: peak RSS of the process (workers included); ' +
      'B/B: RSS above plain per byte of shared data.',
  );
  for (const s of opts.skipped) lines.push('', `**Skipped:** ${s}`);
  lines.push('');
  const head = ['kernel', 'workers', 'shared KiB', 'plain ms', 'plain MiB'];
  for (const d of detectors) head.push(`${d} ms`, `${d} MiB`);
  lines.push(
    `| ${head.join(' | ')} |`,
    `|---|${head
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  );
  const slowdowns = new Map<string, number[]>(detectors.map((d) => [d, []]));
  const wallSlowdowns = new Map<string, number[]>(detectors.map((d) => [d, []]));
  const notes: string[] = [];
  const racy: string[] = [];
  for (const k of kernels)
    for (const w of workerCounts) {
      for (const m of modes) {
        const warning = get(k, w, m)?.runs.find((r) => r.warning !== undefined)?.warning;
        if (warning !== undefined) notes.push(`${k}, ${w} workers, ${m}: ${warning}`);
      }
      const plainCell = get(k, w, 'plain');
      const plain = figures(plainCell);
      const shared =
        plain.sharedBytes ?? detectors.map((d) => figures(get(k, w, d)).sharedBytes).find((x) => x);
      const row = [k, String(w), shared === undefined ? '' : (shared / 1024).toFixed(0)];
      if (!modes.includes('plain')) row.push('', '');
      else if (plain.ok) row.push(plain.ms!.toFixed(0), mib(plain.rssKiB));
      else {
        row.push('failed', '');
        notes.push(`${k}, ${w} workers, plain: ${plainCell?.failed ?? 'no run'}`);
      }
      for (const d of detectors) {
        const cell = get(k, w, d);
        for (const r of cell?.runs ?? [])
          if ((r.racyVariables ?? 0) > 0) {
            const what =
              `${k}, ${w} workers, ${d}: ${r.racyVariables} racy variables` +
              (r.racyNames?.length ? ` (${r.racyNames.slice(0, 5).join(', ')})` : '');
            if (PRECISE.has(detectorOf(d))) racy.push(what);
            else notes.push(`${what} — ${d} is imprecise (no happens-before for barriers, start or join)`);
            break;
          }
        const f = figures(cell);
        if (!f.ok) {
          row.push('failed', '');
          notes.push(`${k}, ${w} workers, ${d}: ${cell?.failed ?? 'no run'}`);
          continue;
        }
        let time = f.ms!.toFixed(0);
        if (plain.ok) {
          const x = f.ms! / plain.ms!;
          slowdowns.get(d)!.push(x);
          wallSlowdowns.get(d)!.push(f.wallMs! / plain.wallMs!);
          time += ` (${ratio(x)})`;
        }
        let mem = mib(f.rssKiB);
        if (plain.ok && f.rssKiB !== undefined && plain.rssKiB !== undefined && shared)
          mem += ` (${(((f.rssKiB - plain.rssKiB) * 1024) / shared).toFixed(1)} B/B)`;
        row.push(time, mem);
      }
      lines.push(`| ${row.join(' | ')} |`);
    }
  const medians: Record<string, number | undefined> = {};
  lines.push('');
  for (const d of detectors) {
    const xs = slowdowns.get(d)!;
    medians[d] = medianOf(xs);
    const wall = medianOf(wallSlowdowns.get(d)!);
    lines.push(
      xs.length === 0
        ? `- ${d}: no slowdown measured`
        : `- ${d}: median slowdown **${ratio(medians[d]!)}** over ${xs.length} kernel × workers ` +
            `(whole-process wall time: ${ratio(wall!)})`,
    );
  }
  // each mode against the mode it varies: D against D@base (this build / base), D+history against D
  for (const d of detectors.filter((m) => m.endsWith(BASE) || m.endsWith(HISTORY))) {
    const history = d.endsWith(HISTORY);
    const [current, before] = history ? [d, detectorOf(d)] : [detectorOf(d), d];
    const ratios: number[] = [];
    for (const k of kernels)
      for (const w of workerCounts) {
        const now = figures(get(k, w, current));
        const then = figures(get(k, w, before));
        if (now.ok && then.ok) ratios.push(now.ms! / then.ms!);
      }
    if (ratios.length > 0)
      lines.push(
        `- ${current} against ${before}: kernel time ratio (${history ? 'with --history / without' : 'this build / base'}) median ` +
          `**${medianOf(ratios)!.toFixed(2)}**, from ${Math.min(...ratios).toFixed(2)} to ` +
          `${Math.max(...ratios).toFixed(2)} over ${ratios.length} kernel × workers`,
      );
  }
  if (modes.includes('goldilocks')) {
    lines.push(
      '',
      "How accesses were decided (goldilocks's report `stats`; the paper's Table 1): accesses (element, " +
        'DataView, bulk and atomic, per 8-byte word), the share decided by the same-epoch filter without a check; ' +
        'checks (the Infos of other accesses a word check looked at) and the share decided by Owner (same thread ' +
        'as that access), Alock (a lock held at that access held now), the happens-before memo, direct ownership ' +
        "transfer (a walk over the two threads' cells), and a lockset walk (the full rules).",
      '',
      '| kernel | workers | accesses | same epoch | checks | Owner | Alock | memo | direct transfer | lockset walk |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const k of kernels)
      for (const w of workerCounts) {
        const runs = get(k, w, 'goldilocks')?.runs ?? [];
        const stats = runs.find((r) => r.stats !== undefined)?.stats;
        lines.push(`| ${k} | ${w} | ${shortCircuits(stats).join(' | ')} |`);
      }
  }
  lines.push(...shadowTable(kernels, workerCounts, detectors, get));
  if (opts.second !== undefined)
    lines.push(...slopeTable(kernels, workerCounts, detectors, get, opts.second, opts.size));
  if (racy.length > 0) {
    lines.push('', '**RACES REPORTED ON RACE-FREE KERNELS** (a bug of the kernel or of the detector):', '');
    for (const r of racy) lines.push(`- ${r}`);
  }
  if (notes.length > 0) {
    lines.push('', 'Notes:', '');
    for (const n of notes) lines.push(`- ${n}`);
  }
  lines.push('');
  return { md: lines.join('\n'), racy, medians };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kernels: { type: 'string' },
      workers: { type: 'string', default: '2,4' },
      size: { type: 'string', default: 'small' },
      modes: { type: 'string', default: DEFAULT_MODES },
      repeat: { type: 'string', default: '1' },
      timeout: { type: 'string', default: '600' },
      'no-verify': { type: 'boolean', default: false },
      'fixed-size': { type: 'string' },
      json: { type: 'string' },
      out: { type: 'string' },
      base: { type: 'string' },
      'shadow-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const kernels = list(values.kernels ?? KERNELS.join(','));
  for (const k of kernels)
    if (!existsSync(path.join(ROOT, 'bench', 'kernels', `${k}.mjs`)))
      throw new Error(`unknown kernel '${k}' (one of ${KERNELS.join(', ')})`);
  const workerCounts = list(values.workers).map((w) => positive(w, '--workers'));
  const sizes = ['tiny', 'small', 'medium', 'large'];
  if (!sizes.includes(values.size)) throw new Error(`--size: tiny, small, medium or large`);
  const fixed = values['fixed-size'];
  if (
    fixed !== undefined &&
    !(sizes.indexOf(fixed) >= 0 && sizes.indexOf(fixed) < sizes.indexOf(values.size))
  )
    throw new Error(`--fixed-size: a size smaller than --size (${values.size})`);
  if (values['shadow-limit'] !== undefined)
    shadowLimit = String(positive(values['shadow-limit'], '--shadow-limit'));
  let modes = list(values.modes);
  for (const m of modes)
    if (m !== 'plain' && !DETECTORS.includes(detectorOf(m)))
      throw new Error(
        `unknown mode '${m}' (plain or one of ${DETECTORS.join(', ')}, each also with ${HISTORY})`,
      );
  if (values.base !== undefined) {
    const base = buildRevision(values.base);
    baseCli = path.join(base.dist, 'cli', 'main.js');
    modes = modes.flatMap((m) => (m === 'plain' || m.endsWith(HISTORY) ? [m] : [m, `${m}${BASE}`]));
  }
  const repeat = positive(values.repeat, '--repeat');
  const timeoutMs = positive(values.timeout, '--timeout') * 1000;
  const opts = { size: values.size, verify: !values['no-verify'], timeoutMs };

  const skipped: string[] = [];
  const detectors = modes.filter((m) => m !== 'plain');
  if (detectors.length > 0) {
    const why = await runUnavailable();
    if (why !== undefined) {
      skipped.push(`modes ${detectors.join(', ')}: ${why}.`);
      process.stderr.write(`skipping modes ${detectors.join(', ')}: ${why}\n`);
      modes = modes.filter((m) => m === 'plain');
    }
  }
  if (modes.length === 0) throw new Error('no mode to run');

  const cells = new Map<string, Cell>();
  const t0 = performance.now();
  for (let rep = 1; rep <= repeat; rep++)
    for (const k of kernels)
      for (const w of workerCounts)
        for (const m of modes) {
          const key = `${k}/${w}/${m}`;
          let cell = cells.get(key);
          if (cell === undefined) {
            cell = { kernel: k, workers: w, mode: m, runs: [] };
            cells.set(key, cell);
          }
          if (cell.failed !== undefined) continue;
          const run = await runOnce(k, w, m, rep, opts);
          cell.runs.push(run);
          const where = `${k} ×${w} ${m} (${rep}/${repeat})`;
          if (run.error !== undefined) {
            cell.failed = run.error;
            process.stderr.write(`${where}: FAILED, skipping it from now on: ${run.error}\n`);
            continue;
          }
          const races = run.racyVariables === undefined ? '' : `, ${run.racyVariables} racy variables`;
          process.stderr.write(
            `${where}: ${run.result!.ms.toFixed(0)} ms, wall ${run.wallMs.toFixed(0)} ms, ` +
              `${mib(run.maxRSSKiB)} MiB${races}\n`,
          );
          if ((run.racyVariables ?? 0) > 0 && PRECISE.has(detectorOf(m)))
            process.stderr.write(
              `!!! ${where}: ${m} REPORTED ${run.racyVariables} RACY VARIABLES on a race-free kernel\n`,
            );
        }
  let second: { size: string; cells: Map<string, Cell> } | undefined;
  const fixedSize = values['fixed-size'];
  if (fixedSize !== undefined) {
    second = { size: fixedSize, cells: new Map() };
    const small = { ...opts, size: fixedSize, verify: false };
    for (const k of kernels)
      for (const w of workerCounts)
        for (const m of modes.filter((x) => x !== 'plain')) {
          const run = await runOnce(k, w, m, 1, small);
          second.cells.set(`${k}/${w}/${m}`, { kernel: k, workers: w, mode: m, runs: [run] });
          const shadow = shadowBytes(run.stats)?.total;
          process.stderr.write(
            `${k} ×${w} ${m} at size ${fixedSize}: ${run.error ?? `shadow ${shadow === undefined ? '?' : (shadow / 1024).toFixed(0)} KiB`}\n`,
          );
        }
  }
  const wallMs = performance.now() - t0;
  const r = report(cells, kernels, workerCounts, modes, {
    size: values.size,
    repeat,
    wallMs,
    skipped,
    second,
  });
  process.stdout.write(`\n${r.md}`);
  if (values.out !== undefined) {
    appendFileSync(values.out, `${r.md}\n`);
    process.stderr.write(`appended to ${values.out}\n`);
  }
  if (values.json !== undefined) {
    const json = {
      date: new Date().toISOString(),
      machine: describeMachine(),
      argv: process.argv.slice(2),
      size: values.size,
      repeat,
      modes,
      skipped,
      medianSlowdown: r.medians,
      racesOnRaceFreeKernels: r.racy,
      cells: [...cells.values()].map((c) => ({ ...c, ...figures(c) })),
    };
    writeFileSync(values.json, `${JSON.stringify(json, null, 2)}\n`);
    process.stderr.write(`wrote ${values.json}\n`);
  }
  if (r.racy.length > 0) {
    process.stderr.write(
      `\n!!! RACES REPORTED ON RACE-FREE KERNELS:\n${r.racy.map((x) => `!!!   ${x}\n`).join('')}`,
    );
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:runtime: ${(e as Error).message}\n`);
  process.exit(1);
});
