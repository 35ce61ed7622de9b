/**
 * `goldilocks jumble [options] <entry> [args]` and `goldilocks jumble [options] -- <command...>`: the campaign of
 * adversarial memory (Flanagan & Freund, PLDI'10 §6; issue 22 §3; ../shared/JUMBLE.md §13.6), automated.
 *
 * 1. Detection: a `goldilocks run --on-race=report` of the program (or `--races REPORT.json`) lists its racy
 *    variables; each is a group (TODO, issue 22 §3: group by the SharedArrayBuffer's allocation site + offset +
 *    size once race records carry it).
 * 2. For each group, the configurations `none` (plain node, not instrumented), `sc`, `oldest`, `obd`, `random`,
 *    `rbd` (`goldilocks run --jumble <h> --jumble-locations <the group> --jumble-seed <seed + i>`), `--runs` each,
 *    in parallel up to `--jobs`, each killed after `--timeout` ms (default 10 × the detection run's time, at least
 *    10 s); a progress bar on stderr.
 * 3. A run fails when it hangs (timed out), when its exit code differs from the plain runs' (most common) one — an
 *    `exception` when stderr shows an uncaught exception, else `exit` — or when its stdout differs from the
 *    reference runs' (`none` and `sc`) while these all agree (`output`).
 * 4. Verdict per group: `inconclusive` when a control (`none`, `sc`) failed; `destructive` when an adversarial
 *    configuration failed (with a witness: its first failing run and the command that reruns it); `benign` when the
 *    jumbled runs' reads had a choice and nothing failed; `not-exercised` when no read ever had one.
 *
 * Output: the Figure 9 table (failure rate per configuration and group, %) on stdout, and with `--json FILE` the
 * schema `goldilocks-jumble/1` (docs/JUMBLE.md "Campaign"). Not done yet: QoS (a slowdown without failure),
 * `--oracle`, the jumbled reads of a witness run, and the Figure 10 table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type cliProgress from 'cli-progress';
import { JUMBLE_HEURISTICS } from '../live/options.js';
import { writeAll } from '../trace/write-all.js';
import { readableFile, UsageError, writableFile } from './usage.js';

/** The configurations of a campaign, in the order of the paper's Figure 9. */
export const CONFIGURATIONS = ['none', ...JUMBLE_HEURISTICS] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

export interface JumbleFlags {
  runs: number;
  jobs?: number;
  /** Milliseconds; default: 10 × the detection run's time, at least 10 s (60 s with `--races`). */
  timeout?: number;
  seed: number;
  races?: string;
  json?: string;
  progress: boolean;
}

/** What one run did. */
interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** A failing run of a group. */
export interface Witness {
  configuration: Configuration;
  seed: number;
  kind: 'exception' | 'exit' | 'hang' | 'output';
  message: string;
  command: string;
}

/** One group of the JSON output (`goldilocks-jumble/1`). */
export interface GroupResult {
  /** The allocation site of the buffer (file:line:column); null until race records carry it. */
  site: string | null;
  /** The racy variable (`sab#B+O`) the group jumbles. */
  variable: string;
  offset: number;
  verdict: 'destructive' | 'benign' | 'not-exercised' | 'inconclusive';
  /** Per configuration, the fraction of failing runs (0..1). */
  rates: Record<Configuration, number>;
  /** Reads of the jumbled runs that had a choice (two or more distinct visible values). */
  exercised: number;
  witness?: Witness;
}

const CLI = fileURLToPath(new URL('./main.js', import.meta.url));

/** Runs `argv[0]` with `argv.slice(1)`, killed (with its process group) after `timeout` ms. */
function runOnce(argv: string[], timeout: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { detached: true, env: process.env });
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
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
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

const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/** The first line of an uncaught exception in `stderr`, or undefined. */
const uncaught = (stderr: string): string | undefined =>
  /^(\w*(Error|Exception)\b[^\n]*)$/m.exec(stderr)?.[1] ?? (/Uncaught [^\n]*/.exec(stderr)?.[0] || undefined);

/** Reads with a choice, from a jumbled run's summary line. */
const choices = (stderr: string): number =>
  Number(
    /goldilocks: jumble: [\d,]+ reads of jumbled locations, ([\d,]+) with a choice/
      .exec(stderr)?.[1]
      ?.replace(/,/g, '') ?? 0,
  );

/**
 * Runs the campaign on `args` (`[entry, ...args]`, or a command when `command`). @returns the exit code: 0, or 1
 * when some group is destructive.
 * @throws UsageError for a missing entry or unusable files, or when the detection run finds nothing to jumble.
 */
export async function jumbleCampaign(args: string[], command: boolean, flags: JumbleFlags): Promise<number> {
  if (flags.races) readableFile(flags.races, '--races', 'a JSON report of goldilocks run');
  if (flags.json) writableFile(flags.json, '--json');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-jumble-'));
  const node = process.execPath;
  const program = command ? ['--', ...args] : args;
  try {
    // 1. detection
    let report = flags.races;
    let timeout = flags.timeout ?? 60_000;
    if (report === undefined) {
      report = path.join(dir, 'races.json');
      const started = Date.now();
      const r = await runOnce(
        [node, CLI, 'run', '--on-race', 'report', '--report', report, ...program],
        flags.timeout === undefined ? 600_000 : 10 * flags.timeout,
      );
      timeout = flags.timeout ?? Math.max(10_000, 10 * (Date.now() - started));
      if (r.code === 2)
        throw new UsageError(`jumble: the detection run failed: ${r.stderr.trim().split('\n').at(-1)}`);
    }
    const variables = (JSON.parse(readFileSync(report, 'utf8')) as { racyVariables: string[] }).racyVariables;
    // 2. the runs
    const plain = command ? args : [node, ...args];
    const argvOf = (c: Configuration, seed: number, file: string): string[] =>
      c === 'none'
        ? plain
        : [
            node,
            CLI,
            'run',
            '--jumble',
            c,
            '--jumble-seed',
            String(seed),
            '--jumble-locations',
            file,
            ...program,
          ];
    const tasks: (() => Promise<RunResult>)[] = [];
    const files = variables.map((v, g) => {
      const file = path.join(dir, `group${g}.locations`);
      writeFileSync(file, `${v.replace(/^\d+\//, '')}\n`);
      return file;
    });
    variables.forEach((_, g) => {
      for (const c of CONFIGURATIONS)
        for (let i = 0; i < flags.runs; i++)
          tasks.push(() => runOnce(argvOf(c, flags.seed + i, files[g]), timeout));
    });
    const bar = await progressBar(flags.progress, tasks.length);
    const results = await pool(tasks, flags.jobs ?? os.availableParallelism(), () => bar?.increment());
    bar?.stop();
    // 3-4. failures and verdicts
    const per = CONFIGURATIONS.length * flags.runs;
    const groups: GroupResult[] = variables.map((variable, g) => {
      const of = (c: Configuration): RunResult[] => {
        const k = g * per + CONFIGURATIONS.indexOf(c) * flags.runs;
        return results.slice(k, k + flags.runs);
      };
      const codes = new Map<number | null, number>();
      for (const r of of('none')) if (!r.timedOut) codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
      const expected = [...codes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
      const references = [...of('none'), ...of('sc')].filter((r) => !r.timedOut);
      const output = references.every((r) => r.stdout === references[0]?.stdout)
        ? references[0]?.stdout
        : undefined;
      const failure = (r: RunResult): Witness['kind'] | undefined => {
        if (r.timedOut) return 'hang';
        if (r.code !== expected) return uncaught(r.stderr) !== undefined ? 'exception' : 'exit';
        if (output !== undefined && r.stdout !== output) return 'output';
        return undefined;
      };
      const rates = {} as Record<Configuration, number>;
      let witness: Witness | undefined;
      let exercised = 0;
      for (const c of CONFIGURATIONS) {
        let failed = 0;
        of(c).forEach((r, i) => {
          if (c !== 'none') exercised += choices(r.stderr);
          const kind = failure(r);
          if (kind === undefined) return;
          failed++;
          if (witness === undefined && c !== 'none' && c !== 'sc') {
            const seed = flags.seed + i;
            witness = {
              configuration: c,
              seed,
              kind,
              message:
                kind === 'hang'
                  ? `no exit after ${timeout} ms`
                  : (uncaught(r.stderr) ?? `exit code ${r.code}`),
              command: ['goldilocks', ...argvOf(c, seed, files[g]).slice(2)]
                .map((a) => (a === files[g] ? `<(echo ${variable})` : quote(a)))
                .join(' '),
            };
          }
        });
        rates[c] = failed / flags.runs;
      }
      const controls = rates.none > 0 || rates.sc > 0;
      const adversarial = JUMBLE_HEURISTICS.some((h) => h !== 'sc' && rates[h] > 0);
      const verdict: GroupResult['verdict'] = controls
        ? 'inconclusive'
        : adversarial
          ? 'destructive'
          : exercised > 0
            ? 'benign'
            : 'not-exercised';
      const offset = Number(/\+(\d+)$/.exec(variable)?.[1] ?? 0);
      return {
        site: null,
        variable,
        offset,
        verdict,
        rates,
        exercised,
        ...(verdict === 'destructive' ? { witness } : {}),
      };
    });
    // output
    writeAll(1, Buffer.from(figure9(args.join(' '), groups, flags.runs)));
    if (flags.json)
      writeFileSync(
        flags.json,
        `${JSON.stringify({ schema: 'goldilocks-jumble/1', program: args.join(' '), runs: flags.runs, groups }, null, 2)}\n`,
      );
    return groups.some((g) => g.verdict === 'destructive') ? 1 : 0;
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

/** The Figure 9 table: per group, the failure rate (%) of each configuration, the reads with a choice, the verdict. */
export function figure9(program: string, groups: GroupResult[], runs: number): string {
  const head = ['location', ...CONFIGURATIONS, 'exercised', 'verdict'];
  const rows = groups.map((g) => [
    g.variable,
    ...CONFIGURATIONS.map((c) => String(Math.round(g.rates[c] * 100))),
    String(g.exercised),
    g.verdict,
  ]);
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (r: string[]) =>
    r.map((x, k) => (k === 0 ? x.padEnd(widths[k]) : x.padStart(widths[k]))).join('  ');
  const out = [
    `JUMBLE (adversarial memory, PLDI 2010 §6): ${program}, ${runs} run${runs === 1 ? '' : 's'} per configuration; failure rate (%)`,
    line(head),
    ...rows.map(line),
  ];
  for (const g of groups)
    if (g.witness !== undefined)
      out.push(
        `witness for ${g.variable}: ${g.witness.configuration} seed ${g.witness.seed}, ${g.witness.kind}: ${g.witness.message}`,
        `  rerun: ${g.witness.command}`,
      );
  if (groups.length === 0) out.push('no racy location: nothing to jumble');
  return `${out.join('\n')}\n`;
}
