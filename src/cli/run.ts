/**
 * `goldilocks run`: runs a program (or, after `--`, any command) with every Node.js process and worker thread
 * it starts instrumented and race-checked by the live runtime (src/live/, src/instrument/, src/node/; docs/RUNTIME.md).
 *
 * Each process writes its JSON report into a fresh directory (`GOLDILOCKS_REPORT_DIR`); once the command ends they
 * are merged into `--report FILE` and summarized on stderr; with `--record FILE`, what they recorded is written as
 * one trace (`./record.ts`). Exit code: the command's own, or 66 when a race made
 * `--on-race=abort` stop it, or with `--fail-on-race` (every race reported, the command run to its end) when any
 * race was reported (README "Exit codes").
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EXIT_ABORT, isPrecise, LIVE_DETECTORS, type LiveDetector } from '../live/options.js';
import { run, UNCHECKED_LIST } from '../node/run.js';
import { emptyReport, type JsonReport, liveInput, writeJsonReport } from '../report/json.js';
import { excusedStatistics, mergeExcused } from '../report/suppressions.js';
import { colorsFor, statisticsText, textSummary } from '../report/text.js';
import { jumbleSettings, jumbleSummary } from './jumble.js';
import { VERSION } from './options.js';
import { writeRecordedTrace } from './record.js';
import { readableFile, suppressionsFile, UsageError, writableFile } from './usage.js';

export interface RunFlags {
  onRace: string;
  /** Report every race and go on (`onRace` is then `report`); exit with 66 at the end if any was reported. */
  failOnRace?: boolean;
  report?: string;
  /** A file for the run's trace in the extended format (`./record.ts`). */
  record?: string;
  detector: string;
  /** Print the detector's statistics on stderr (the share of checks each short-circuit decided, as `check --stats`). */
  stats?: boolean;
  /** Adversarial memory's heuristic (`../jumble/heuristics.ts`): a jumbled run (docs/JUMBLE.md "Live"). */
  jumble?: string;
  jumbleSeed?: number;
  jumbleLocations?: string;
  jumbleFairness?: string;
  /** A file for the HTML page (../report/html/page.ts). */
  html?: string;
  /** A file for the SARIF log (../report/sarif.ts). */
  sarif?: string;
  /** A suppressions file (../report/suppressions.ts), read by every process as `GOLDILOCKS_SUPPRESSIONS`. */
  suppressions?: string;
  /** `--shadow-limit`: the shadow heap's size in MiB (`GOLDILOCKS_SHADOW_LIMIT`, `../live/options.ts`). */
  shadowLimit?: number;
  /** Keep every checked access's stack: a race then prints its previous access's stack too. */
  history?: boolean;
}

/**
 * Runs `args` (`[entry, ...programArgs]`, or `[command, ...commandArgs]` when `command`) under the runtime.
 * @returns the exit code (see the file header).
 * @throws the spawn error when the command cannot be started.
 */
export async function runProgram(args: string[], command: boolean, flags: RunFlags): Promise<number> {
  // misuse fails before the run: a missing entry (as node would find it: `x` → `x.js`, `x/index.js`), an unwritable file
  if (!command && args[0] !== '-') readableFile(entryFile(args[0]), 'entry', ENTRY);
  if (flags.record) writableFile(flags.record, '--record');
  if (flags.report) writableFile(flags.report, '--report');
  const jumbled = jumbleSettings(flags);
  if (flags.sarif) writableFile(flags.sarif, '--sarif');
  if (flags.html) writableFile(flags.html, '--html');
  if (flags.suppressions) await suppressionsFile(flags.suppressions);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-run-'));
  try {
    const env = processEnv(flags, jumbled, dir);
    const code = command ? await runCommand(args, env) : await run(args, { env });
    return await runOutcome(dir, args, flags, jumbled, code, process.stderr, colorsFor(process.stderr));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The detector of a run: `flags.detector`, or fasttrack when it is `jumbled` (adversarial memory needs its clocks). */
const detectorOf = (flags: RunFlags, jumbled: Record<string, string> | undefined): string =>
  jumbled ? 'fasttrack' : flags.detector;

/**
 * The environment of the processes of a run of `flags` (its {@link jumbleSettings} `jumbled`): `base` with the
 * runtime's `GOLDILOCKS_*` settings, each process reporting into the directory `dir` (docs/RUNTIME.md). The command
 * gets it with the hooks preloaded (`../node/run.ts` instrumentedEnv); `goldilocks jumble` starts each jumbled run
 * so (`./jumble-campaign.ts`).
 */
export function processEnv(
  flags: RunFlags,
  jumbled: Record<string, string> | undefined,
  dir: string,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    GOLDILOCKS_ON_RACE: flags.failOnRace || jumbled ? 'report' : flags.onRace,
    GOLDILOCKS_DETECTOR: detectorOf(flags, jumbled),
    GOLDILOCKS_REPORT_DIR: dir,
    ...(flags.record ? { GOLDILOCKS_RECORD: path.join(dir, 'record') } : {}),
    ...jumbled,
    ...(flags.suppressions ? { GOLDILOCKS_SUPPRESSIONS: path.resolve(flags.suppressions) } : {}),
    ...(flags.shadowLimit ? { GOLDILOCKS_SHADOW_LIMIT: String(flags.shadowLimit) } : {}),
    ...(flags.history ? { GOLDILOCKS_HISTORY: '1' } : {}),
  };
}

/**
 * What a run does once its command `args` (with {@link processEnv}'s directory `dir`) exited with `code`: writes the
 * `--record` trace, the merged `--report`, `--sarif` and `--html`, and the summaries (statistics, adversarial
 * memory's counters, races, unchecked modules) to `err`, races in ANSI colours when `colors`.
 * @returns the run's exit code (see the file header).
 */
export async function runOutcome(
  dir: string,
  args: string[],
  flags: RunFlags,
  jumbled: Record<string, string> | undefined,
  code: number,
  err: { write(text: string): unknown },
  colors: boolean,
): Promise<number> {
  const detector = detectorOf(flags, jumbled);
  if (flags.record) {
    const r = writeRecordedTrace(path.join(dir, 'record'), flags.record, args.join(' '));
    if (r.missing.length > 0)
      err.write(
        `goldilocks: --record: process${r.missing.length === 1 ? '' : 'es'} ${r.missing.join(', ')} ended without writing ${r.missing.length === 1 ? 'its' : 'their'} synchronization events (killed?); left out of the trace\n`,
      );
    err.write(
      `goldilocks: recorded ${r.events} events of ${r.processes} process${r.processes === 1 ? '' : 'es'} to ${flags.record}\n`,
    );
  }
  const reports = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as JsonReport);
  const merged = mergeReports(reports, args.join(' '), detector);
  const unchecked = uncheckedModules(dir);
  if (unchecked.length > 0) merged.unchecked = unchecked;
  if (flags.report) writeJsonReport(flags.report, merged);
  if (flags.sarif) (await import('../report/sarif.js')).writeSarif(flags.sarif, [merged], VERSION);
  if (flags.html) {
    const [{ writeHtml }, { SourceReader }] = await Promise.all([
      import('../report/html/page.js'),
      import('../report/html/sources.js'),
    ]);
    // with --record, the recording gives the timelines and the lockset's evolution (../report/html/recorded.ts)
    const recorded =
      flags.record && existsSync(flags.record)
        ? await (await import('../report/html/recorded.js')).recordedEvidence(flags.record)
        : undefined;
    const shown = recorded ? merged.races.map((r) => recorded(r) ?? { race: r, evidence: undefined }) : [];
    const evidence = new Map(shown.map((x) => [x.race, x.evidence]));
    writeHtml(flags.html, {
      reports: [recorded ? { ...merged, races: shown.map((x) => x.race) } : merged],
      evidence: (race) => evidence.get(race),
      missing: recorded ? LIVE_NOT_RECORDED : LIVE_MISSING,
      sources: new SourceReader([process.cwd()]),
    });
  }
  if (flags.stats) err.write(`${[...statisticsText(merged), ...excusedStatistics(merged)].join('\n')}\n`);
  if (jumbled) err.write(jumbleSummary(dir));
  if (merged.summary.racyVariables > 0 || merged.summary.suppressed || merged.summary.benign)
    err.write(textSummary(merged, colors));
  if (unchecked.length > 0)
    err.write(
      `goldilocks: unchecked (not instrumented, the rewriter cannot parse ${unchecked.length === 1 ? 'it' : 'them'}): ${unchecked.join(', ')}\n`,
    );
  if (existsSync(path.join(dir, 'aborted'))) return EXIT_ABORT;
  return flags.failOnRace && merged.summary.racyVariables > 0 ? EXIT_ABORT : code;
}

const ENTRY = 'a JavaScript or TypeScript file';

/** What a live run's HTML page cannot show without `--record`, and how to get it. */
const LIVE_MISSING =
  'Not available for a live run without --record: the runtime keeps no history of the synchronization events ' +
  'between the two accesses (its list is collected as the program runs), so neither the threads’ timelines nor ' +
  'the lockset’s evolution can be drawn; the lockset below is the one computed at the racing access. To see them, ' +
  'record the run as well: goldilocks run --html page.html --record run.trace …';

/** Why a live race recorded with `--record` has no timelines: the recording's order did not race there. */
const LIVE_NOT_RECORDED =
  'Not in the recording: checked offline, the recorded trace shows no race of this pair of locations (the live ' +
  'run and its recording order some events differently); the lockset below is the one computed at the racing access.';

/** The distinct modules of the report directory `dir`'s {@link UNCHECKED_LIST}, sorted; none without the file. */
function uncheckedModules(dir: string): string[] {
  const file = path.join(dir, UNCHECKED_LIST);
  if (!existsSync(file)) return [];
  return [
    ...new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ),
  ].sort();
}

/**
 * Runs `[command, ...commandArgs]` under the runtime. @returns its exit code.
 * @throws UsageError `run: no such command '<command>'` when it is not found (or may not be executed); the spawn
 * error for any other failure.
 */
async function runCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    return await run(args.slice(1), { env, command: args[0] });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EACCES') throw e;
    const what = code === 'ENOENT' ? 'no such command' : 'no permission to execute';
    throw new UsageError(`run: ${what} '${args[0]}' (expected a program on the PATH, or a path to one)`);
  }
}

/**
 * The file `node <entry>` runs: CommonJS resolution of its absolute path (Node's `resolveMainPath`).
 * @throws UsageError `entry: no such file '<entry>' (expected ...)` when there is none.
 */
function entryFile(entry: string): string {
  try {
    return createRequire(path.join(process.cwd(), 'goldilocks-run')).resolve(path.resolve(entry));
  } catch {
    throw new UsageError(`entry: no such file '${entry}' (expected ${ENTRY})`);
  }
}

/**
 * One report for all processes of a run of `detector` (a name in LIVE_DETECTORS): the single report as it is, or
 * summed summaries and concatenated races whose variables are prefixed by `<n>/` for the n-th process's report in
 * pid order (buffer ids are per process; a recorded trace uses the same prefixes). `racyLocations` counts the
 * distinct locations of the races listed, `timeMs` is the longest process's.
 */
export function mergeReports(reports: JsonReport[], program: string, detector: string): JsonReport {
  if (reports.length === 1) return { ...reports[0], input: { ...reports[0].input, file: program } };
  const out = emptyReport(
    detector,
    isPrecise(LIVE_DETECTORS.indexOf(detector as LiveDetector)),
    liveInput(program),
  );
  const summary = out.summary as unknown as Record<string, number>;
  const locations = new Set<string>();
  for (const [i, r] of reports.entries()) {
    const prefix = `${i}/`;
    for (const [k, v] of Object.entries(r.summary))
      if (k !== 'racyLocations' && k !== 'eventsPerSecond') summary[k] = (summary[k] ?? 0) + v;
    out.racyVariables.push(...r.racyVariables.map((v) => prefix + v));
    out.firstRaces.push(...r.firstRaces.map((f) => ({ ...f, variable: prefix + f.variable })));
    out.races.push(...r.races.map((x) => ({ ...x, variable: prefix + x.variable })));
    for (const x of r.races) locations.add(x.current.location).add(x.previous.location);
    for (const [k, v] of Object.entries(r.stats)) out.stats[k] = (out.stats[k] ?? 0) + v;
  }
  mergeExcused(out, reports);
  out.summary.racyLocations = locations.size;
  out.summary.timeMs = Math.max(0, ...reports.map((r) => r.summary.timeMs));
  return out;
}
