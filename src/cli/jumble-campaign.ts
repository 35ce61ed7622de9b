/**
 * `goldilocks jumble [options] <entry> [args]` and `goldilocks jumble [options] -- <command...>`: the campaign of
 * adversarial memory (Flanagan & Freund, PLDI'10 §6; issue 22 §3; ../shared/JUMBLE.md §13.6), automated.
 *
 * 1. Detection: a `goldilocks run --on-race=report` of the program (or `--races REPORT.json`) lists its races; their
 *    locations are grouped by allocation site + offset + size (`./jumble-groups.ts`).
 * 2. For each group, the configurations `none` (plain node, not instrumented), `sc`, `oldest`, `obd`, `random`,
 *    `rbd` (`goldilocks run --jumble <h> --jumble-locations <the group> --jumble-seed <seed + i>`), `--runs` each,
 *    in parallel up to `--jobs` (default: the free cores), each killed after `--timeout` ms (default 10 × the
 *    detection run's time, at least 10 s), a progress bar on stderr. The controls (`none`, `sc`) run first: they
 *    are the reference the adversarial runs are judged against as they end. Every run is instrumented from the
 *    transform cache (`../node/cache.ts`, `GOLDILOCKS_CACHE`; its default directory unless set), so a module is
 *    rewritten once per campaign (by the detection run), not per run.
 * 3. A jumbled run logs its reads with a choice and its counters (`GOLDILOCKS_JUMBLE_LOG`, `../live/jumble/log.ts`);
 *    `--oracle SCRIPT` judges each run that ended ({@link runOracle}); failures and verdicts: `./jumble-verdict.ts`.
 *    Only the log of each group's witness candidate is kept (its first failing adversarial run by configuration,
 *    then seed), so the temporary directory stays small.
 *
 * Output: the Figure 9 table, the witnesses and the Figure 10 table on stdout (`./jumble-table.ts`), and with
 * `--json FILE` the schema `goldilocks-jumble/1` (docs/REPORT.md). Exit code 1 when some group is destructive.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type cliProgress from 'cli-progress';
import type { LoggedRead } from '../live/jumble/log.js';
import { JUMBLE_HEURISTICS } from '../live/options.js';
import { exitCode, instrumentedEnv } from '../node/run.js';
import { colorsFor } from '../report/text.js';
import { writeAll } from '../trace/write-all.js';
import { jumbleSettings } from './jumble.js';
import { type Group, groupName, groupsOf, type RacesReport } from './jumble-groups.js';
import { figure9, figure10, type GroupResult, type Witness } from './jumble-table.js';
import {
  CONFIGURATIONS,
  type Configuration,
  DEFAULT_QOS,
  type Failure,
  failureOf,
  figure10Of,
  type Qos,
  type Reference,
  type RunResult,
  referenceOf,
  uncaughtIn,
  verdictOf,
} from './jumble-verdict.js';
import { processEnv, type RunFlags, runOutcome } from './run.js';
import { readableFile, UsageError, writableFile } from './usage.js';

export interface JumbleFlags {
  runs: number;
  /** Runs at a time; default {@link freeCores}. */
  jobs?: number;
  /** Milliseconds; default: 10 × the detection run's time, at least 10 s (60 s with `--races`). */
  timeout?: number;
  seed: number;
  races?: string;
  json?: string;
  progress: boolean;
  /** A shell command judging each run (see {@link runOracle}). */
  oracle?: string;
  /** QoS threshold: factor over the `sc` runs' median cost, and margin in ms. */
  qos?: number;
  qosMargin?: number;
}

const CLI = fileURLToPath(new URL('./main.js', import.meta.url));
export type Heuristic = (typeof JUMBLE_HEURISTICS)[number];

/** The cores not busy: the available parallelism less the 1-minute load average, at least 1. */
export const freeCores = (): number => Math.max(1, os.availableParallelism() - Math.floor(os.loadavg()[0]));

export interface Spawned {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  wallMs: number;
}

/**
 * Runs `argv[0]` with `argv.slice(1)` (through the shell when `shell`), `stdin` as its input, killed (with its
 * process group) after `timeout` ms.
 */
function runOnce(
  argv: string[],
  timeout: number,
  env: NodeJS.ProcessEnv,
  shell = false,
  stdin = '',
): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { detached: true, env, shell });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeout);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdin.on('error', () => {}); // a command that does not read its input
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, wallMs: performance.now() - started });
    });
  });
}

/** Runs the tasks with at most `jobs` at a time; `done` after each. @returns their results in order. */
async function pool<T>(tasks: (() => Promise<T>)[], jobs: number, done: () => void): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
      done();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return out;
}

/** The flags of a jumbled run of a campaign: heuristic `c`, seed `seed`, the group's locations `file`. */
export const jumbledFlags = (c: Heuristic, seed: number, file: string): RunFlags => ({
  onRace: 'throw',
  detector: 'goldilocks',
  jumble: c,
  jumbleSeed: seed,
  jumbleLocations: file,
});

/**
 * The command line words of `goldilocks run` with the {@link jumbledFlags} `flags` on `program` (the entry and its
 * arguments, or `--` and a command): how a witness's run is typed again.
 */
export const runWords = (flags: RunFlags, program: string[]): string[] => [
  'run',
  '--jumble',
  String(flags.jumble),
  '--jumble-seed',
  String(flags.jumbleSeed),
  '--jumble-locations',
  String(flags.jumbleLocations),
  ...program,
];

/**
 * A jumbled run of a campaign, what `goldilocks run` with `flags` (its {@link runWords}) does, without its process:
 * `argv` (`node entry args`, or the command) started instrumented ({@link processEnv} over `env`, reporting into the
 * directory `report`, made and removed here), then, unless killed at the time-out, its outcome (`./run.ts`
 * runOutcome: the exit code `goldilocks run` would exit with, its summary appended to stderr, without colours as
 * through a pipe).
 */
export async function jumbledRun(
  argv: string[],
  args: string[],
  flags: RunFlags,
  report: string,
  timeout: number,
  env: NodeJS.ProcessEnv,
): Promise<Spawned> {
  const jumbled = jumbleSettings(flags);
  mkdirSync(report);
  try {
    const r = await runOnce(argv, timeout, instrumentedEnv(processEnv(flags, jumbled, report, env)));
    if (r.timedOut) return r;
    let stderr = r.stderr;
    const err = { write: (text: string) => (stderr += text) };
    const code = await runOutcome(
      report,
      args,
      flags,
      jumbled,
      exitCode(r.code, r.signal),
      err,
      colorsFor({}, env),
    );
    return { ...r, code, signal: null, stderr };
  } finally {
    rmSync(report, { recursive: true, force: true });
  }
}

const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/**
 * The counters of a jumbled run's log directory (`<pid>.stats` of each process, `../live/jumble/log.ts`): summed,
 * the `max…` ones the largest; undefined when no process wrote any.
 */
export function statsIn(dir: string): Record<string, number> | undefined {
  let sum: Record<string, number> | undefined;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.stats'))) {
    sum ??= {};
    const stats = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(stats)) {
      if (typeof v !== 'number' || k === 'seed') continue;
      sum[k] = k.startsWith('max') ? Math.max(sum[k] ?? 0, v) : (sum[k] ?? 0) + v;
    }
  }
  return sum;
}

/** The jumbled reads logged in a run's log directory: per thread file (by name), in its order. */
function readsIn(dir: string): LoggedRead[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.reads'))
    .sort()
    .flatMap((f) =>
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as LoggedRead),
    );
}

/**
 * The `--oracle` script's judgement of a run that ended: `script` runs through the shell (`/bin/sh -c`), with the
 * run's stdout as its input and in its environment `GOLDILOCKS_ORACLE_STDOUT`, `GOLDILOCKS_ORACLE_STDERR` (files
 * holding the run's output), `GOLDILOCKS_ORACLE_EXIT` (its exit code, or the signal's name), `GOLDILOCKS_ORACLE_
 * CONFIGURATION` (`none`, `sc`, …), `GOLDILOCKS_ORACLE_SEED` and `GOLDILOCKS_ORACLE_LOCATION` (the group's
 * locations-file line). Exit 0: the run is correct; any other: it failed (kind `oracle`), the first line the script
 * printed (stdout, else stderr) being the message. It is killed after the runs' time-out.
 */
async function runOracle(
  script: string,
  run: Spawned,
  dir: string,
  c: Configuration,
  seed: number,
  group: Group,
  timeout: number,
): Promise<{ code: number | null; message: string }> {
  const stdout = path.join(dir, 'stdout');
  const stderr = path.join(dir, 'stderr');
  writeFileSync(stdout, run.stdout);
  writeFileSync(stderr, run.stderr);
  const env = {
    ...process.env,
    GOLDILOCKS_ORACLE_STDOUT: stdout,
    GOLDILOCKS_ORACLE_STDERR: stderr,
    GOLDILOCKS_ORACLE_EXIT: run.code === null ? String(run.signal) : String(run.code),
    GOLDILOCKS_ORACLE_CONFIGURATION: c,
    GOLDILOCKS_ORACLE_SEED: String(seed),
    GOLDILOCKS_ORACLE_LOCATION: group.location,
  };
  const o = await runOnce([script], timeout, env, true, run.stdout);
  const line = (t: string) =>
    t
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim();
  return {
    code: o.timedOut ? null : o.code,
    message: o.timedOut
      ? `the oracle did not exit within ${timeout} ms`
      : (line(o.stdout) ?? line(o.stderr) ?? ''),
  };
}

/**
 * The environment of the campaign's runs: the campaign's own without `GOLDILOCKS_JUMBLE*` settings (each jumbled run
 * gets its own); `GOLDILOCKS_CACHE` passes through, so every run shares one transform cache.
 */
export function runEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of Object.keys(out)) if (k.startsWith('GOLDILOCKS_JUMBLE')) delete out[k];
  return out;
}

/**
 * Runs the campaign on `args` (`[entry, ...args]`, or a command when `command`). @returns the exit code: 0, or 1
 * when some group is destructive.
 * @throws UsageError for a missing entry or unusable files, or when the detection run fails.
 */
export async function jumbleCampaign(args: string[], command: boolean, flags: JumbleFlags): Promise<number> {
  if (flags.races) readableFile(flags.races, '--races', 'a JSON report of goldilocks run');
  if (flags.json) writableFile(flags.json, '--json');
  const qos: Qos = {
    factor: flags.qos ?? DEFAULT_QOS.factor,
    marginMs: flags.qosMargin ?? DEFAULT_QOS.marginMs,
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-jumble-'));
  const node = process.execPath;
  const program = command ? ['--', ...args] : args;
  const env = runEnv();
  try {
    // 1. detection
    let report = flags.races;
    let timeout = flags.timeout ?? 60_000;
    if (report === undefined) {
      report = path.join(dir, 'races.json');
      const r = await runOnce(
        [node, CLI, 'run', '--on-race', 'report', '--report', report, ...program],
        flags.timeout === undefined ? 600_000 : 10 * flags.timeout,
        env,
      );
      timeout = flags.timeout ?? Math.max(10_000, Math.round(10 * r.wallMs));
      if (r.code === 2)
        throw new UsageError(
          `jumble: the detection run failed: ${r.stderr
            .trim()
            .split('\n')
            .at(-1)
            ?.replace(/^goldilocks: /, '')}`,
        );
    }
    const groups = groupsOf(JSON.parse(readFileSync(report, 'utf8')) as RacesReport);
    const files = groups.map((g, k) => {
      const file = path.join(dir, `group${k}.locations`);
      writeFileSync(file, `${g.location}\n`);
      return file;
    });
    // 2. the runs: the controls first, then the adversarial configurations judged against them as they end
    const plain = command ? args : [node, ...args];
    const task =
      (g: number, c: Configuration, i: number) => async (): Promise<RunResult & { log: string }> => {
        const seed = flags.seed + i;
        const log = path.join(dir, 'runs', `${g}-${c}-${i}`);
        mkdirSync(log, { recursive: true });
        const envOf =
          c === 'none'
            ? env
            : {
                ...env,
                GOLDILOCKS_JUMBLE_LOG: log,
                ...(c === 'sc' ? { GOLDILOCKS_JUMBLE_LOG_READS: '0' } : {}),
              };
        const r =
          c === 'none'
            ? await runOnce(plain, timeout, envOf)
            : await jumbledRun(plain, args, jumbledFlags(c, seed, files[g]), `${log}.report`, timeout, envOf);
        const oracle =
          flags.oracle !== undefined && !r.timedOut
            ? await runOracle(flags.oracle, r, log, c, seed, groups[g], timeout)
            : undefined;
        return {
          configuration: c,
          seed,
          code: r.code,
          signal: r.signal,
          stdout: r.stdout,
          uncaught: uncaughtIn(r.stderr),
          timedOut: r.timedOut,
          wallMs: r.wallMs,
          stats: c === 'none' ? undefined : statsIn(log),
          oracle,
          log,
        };
      };
    const each = <T>(
      configurations: readonly Configuration[],
      f: (g: number, c: Configuration, i: number) => T,
    ) =>
      groups.flatMap((_, g) =>
        configurations.flatMap((c) => Array.from({ length: flags.runs }, (_, i) => f(g, c, i))),
      );
    const controls = ['none', 'sc'] as const;
    const adversarial = JUMBLE_HEURISTICS.filter((h) => h !== 'sc');
    const total = groups.length * CONFIGURATIONS.length * flags.runs;
    const bar = await progressBar(flags.progress, total);
    const jobs = flags.jobs ?? freeCores();
    /** The runs of group g and configuration c among `results` (group-major, as {@link each} made them). */
    const runsOf = (results: RunResult[], g: number, c: Configuration) => {
      const per = results.length / groups.length;
      return results.slice(g * per, (g + 1) * per).filter((r) => r.configuration === c);
    };
    // one pool, so that no core waits for the last controls: an adversarial run started before they all ended is
    // judged once they have (`controlled`)
    const controlTasks = each(controls, task);
    const first: (RunResult & { log: string })[] = new Array(controlTasks.length);
    let refs: Reference[] = [];
    let left = controlTasks.length;
    let release = (): void => {};
    const controlled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const control = (k: number) => async () => {
      first[k] = await controlTasks[k]();
      if (--left === 0) {
        refs = groups.map((_, g) =>
          referenceOf(runsOf(first, g, 'none'), runsOf(first, g, 'sc'), qos, timeout),
        );
        for (const r of first) if (r.configuration === 'sc') rmSync(r.log, { recursive: true, force: true });
        release();
      }
      return first[k];
    };
    /** Per group, the witness candidate: its rank (QoS last, then configuration, then seed), run and failure. */
    const best: ({ rank: number; run: RunResult & { log: string }; failure: Failure } | undefined)[] = [];
    const rankOf = (r: RunResult, f: Failure) =>
      (f.kind === 'qos' ? 1e9 : 0) + CONFIGURATIONS.indexOf(r.configuration) * 1e6 + (r.seed - flags.seed);
    const judged = (g: number, c: Configuration, i: number) => async () => {
      const r = await task(g, c, i)();
      await controlled;
      const failure = failureOf(r, refs[g]);
      const rank = failure === undefined ? Infinity : rankOf(r, failure);
      const old = best[g];
      if (failure !== undefined && (old === undefined || rank < old.rank)) {
        best[g] = { rank, run: r, failure };
        if (old !== undefined) rmSync(old.run.log, { recursive: true, force: true });
      } else rmSync(r.log, { recursive: true, force: true });
      return r;
    };
    const all = await pool(
      [...controlTasks.map((_, k) => control(k)), ...each(adversarial, judged)],
      jobs,
      () => bar?.increment(),
    );
    const second = all.slice(controlTasks.length);
    bar?.stop();
    // 3. verdicts
    const results: GroupResult[] = groups.map((group, g) => {
      const runs = [...runsOf(first, g, 'none'), ...runsOf(first, g, 'sc')];
      for (const c of adversarial) runs.push(...runsOf(second, g, c));
      const failures: Record<string, number> = {};
      const counts = Object.fromEntries(CONFIGURATIONS.map((c) => [c, { all: 0, qos: 0 }])) as Record<
        Configuration,
        { all: number; qos: number }
      >;
      let exercised = 0;
      for (const r of runs) {
        exercised += r.stats?.choiceReads ?? 0;
        const f = failureOf(r, refs[g]);
        if (f === undefined) continue;
        failures[f.kind] = (failures[f.kind] ?? 0) + 1;
        counts[r.configuration].all++;
        if (f.kind === 'qos') counts[r.configuration].qos++;
      }
      const verdict = verdictOf(counts, exercised);
      const rates = Object.fromEntries(CONFIGURATIONS.map((c) => [c, counts[c].all / flags.runs])) as Record<
        Configuration,
        number
      >;
      const b = best[g];
      const witness: Witness | undefined =
        b !== undefined && (verdict === 'destructive' || verdict === 'qos')
          ? {
              configuration: b.run.configuration,
              seed: b.run.seed,
              ...b.failure,
              command: [
                'goldilocks',
                ...runWords(jumbledFlags(b.run.configuration as Heuristic, b.run.seed, files[g]), program),
              ]
                .map((a) => (a === files[g] ? `<(echo ${quote(group.location)})` : quote(a)))
                .join(' '),
              reads: readsIn(b.run.log),
            }
          : undefined;
      return {
        ...group,
        variable: group.variables[0],
        name: groupName(group),
        verdict,
        rates,
        failures,
        exercised,
        figure10: figure10Of(runsOf(first, g, 'none'), runsOf(first, g, 'sc')),
        ...(witness ? { witness } : {}),
      };
    });
    // output
    writeAll(1, Buffer.from(figure9(args.join(' '), results, flags.runs) + figure10(results)));
    if (flags.json)
      writeFileSync(
        flags.json,
        `${JSON.stringify(
          {
            schema: 'goldilocks-jumble/1',
            program: args.join(' '),
            runs: flags.runs,
            timeoutMs: timeout,
            qos,
            groups: results,
          },
          null,
          2,
        )}\n`,
      );
    return results.some((g) => g.verdict === 'destructive') ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bar on stderr (a terminal only), or undefined. */
async function progressBar(enabled: boolean, total: number): Promise<cliProgress.SingleBar | undefined> {
  if (!enabled || !process.stderr.isTTY) return undefined;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: 'jumble [{bar}] {value}/{total} runs | ETA {eta}s', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}
