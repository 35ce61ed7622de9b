/**
 * Every detector on every real trace of ../shared/traces/ (real/, rapid-tests/, roadrunner/), written up in
 * docs/RESULTS.md between the lines `<!-- results:begin -->` and `<!-- results:end -->` (scripts/sections.ts): the
 * rest of the file (the hand-written sections on real clients, online peers, adversarial memory) is kept as is:
 *
 *   npm run results -- [--dirs real,rapid-tests,roadrunner] [--detectors goldilocks,eager,djit,fasttrack,eraser]
 *                       [--max-events-eager N] [--timeout SECONDS] [--out FILE]
 *
 * Each (trace, detector) runs `goldilocks check --json` (src/cli/main.ts) in a fresh child process with a
 * timeout. Per run it takes the JSON summary (events, racy variables, racy locations, racy events, timeMs) and
 * the verdicts (`firstRaces`: racy variable -> index of its first racy event); it checks that the precise
 * detectors agree on the verdicts and counts Eraser's false alarms and misses against them. A trace the
 * checker rejects as infeasible gets a row with the error, and is run again with --lenient.
 * Progress goes to stderr; the section is rewritten in --out after each directory (a new file holds the section
 * alone; an existing one without the markers is an error, and is left untouched). `--help` lists the options.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseCount } from '../bench/generate.js';
import { DETECTORS } from '../src/detectors/names.js';
import type { JsonReport } from '../src/report/json.js';
import { ChildError, describeMachine, ROOT, runNode } from './child.js';
import { replaceSection, writeSection } from './sections.js';

const TRACES = path.resolve(ROOT, '../shared/traces');
const CLI = path.join(ROOT, 'src/cli/main.ts');
const DEFAULT_DIRS = 'real,rapid-tests,roadrunner';
const DEFAULT_TIMEOUT_S = 1200;
/** A progress line for a run still going, every this many milliseconds. */
const TICK_MS = 30_000;

const USAGE = `usage: npm run results -- [options]
  --dirs A,B               subdirectories of ../shared/traces (default ${DEFAULT_DIRS})
  --detectors A,B          detectors (default ${DETECTORS.join(',')})
  --max-events-eager N     eager runs only on traces of at most N events (5M, 200k also accepted;
                           default: on every trace)
  --timeout SECONDS        limit per run (default ${DEFAULT_TIMEOUT_S}); a run killed at the limit is shown as a timeout
  --out FILE               the Markdown file whose results section is rewritten (default docs/RESULTS.md)
  -h, --help               this text
`;

/** What one (trace, detector) run gave. */
type Outcome =
  | { kind: 'ok'; summary: JsonReport['summary']; firstRaces: Map<string, number> }
  | { kind: 'skipped'; why: string }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'error'; message: string };

interface TraceRow {
  /** Trace file name without `.std` / `.trace.gz`. */
  label: string;
  /** Set when the strict run rejected the trace as infeasible (the outcomes are then from --lenient runs). */
  infeasible?: string;
  outcomes: Map<string, Outcome>;
  /** The agreement cell (see {@link agreement}). */
  agree: string;
}

interface DirResult {
  dir: string;
  rows: TraceRow[];
  /** Disagreements among the precise detectors, one line each (empty when they agree). */
  disagreements: string[];
}

const isPrecise = (d: string): boolean => d !== 'eraser';

function fmtInt(n: number): string {
  return n.toLocaleString('en-US');
}

/** The message of a failed CLI run: its `goldilocks: …` line without the directory part of the path. */
function cliMessage(e: ChildError): string {
  const line = e.stderr.split('\n').find((l) => l.startsWith('goldilocks: '));
  return (line ?? e.message).replace(/^goldilocks: /, '').replaceAll(`${TRACES}/`, '');
}

/** One CLI run: `goldilocks check --json -d <detector> [--lenient] <file>`, with progress lines on stderr. */
async function runCheck(
  file: string,
  detector: string,
  lenient: boolean,
  timeoutS: number,
  what: string,
): Promise<Outcome> {
  const args = ['check', '--json', '--max-reports', '0', '--no-progress', '-d', detector];
  if (lenient) args.push('--lenient');
  const t0 = Date.now();
  process.stderr.write(`${what} ...\n`);
  const tick = setInterval(() => {
    process.stderr.write(`${what}: still running, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }, TICK_MS);
  let outcome: Outcome;
  try {
    const j = JSON.parse(await runNode(CLI, [...args, file], { timeoutMs: timeoutS * 1000 })) as JsonReport;
    outcome = {
      kind: 'ok',
      summary: j.summary,
      firstRaces: new Map(j.firstRaces.map((f) => [f.variable, f.index])),
    };
  } catch (e) {
    if (!(e instanceof ChildError)) throw e;
    outcome = e.timedOut ? { kind: 'timeout', seconds: timeoutS } : { kind: 'error', message: cliMessage(e) };
  } finally {
    clearInterval(tick);
  }
  const [counts] = cells(outcome);
  process.stderr.write(
    `${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s wall: ` +
      (outcome.kind === 'ok' ? `${fmtInt(outcome.summary.events)} events, racy vars / locs / events ` : '') +
      `${counts}\n`,
  );
  return outcome;
}

/**
 * Runs every detector on one trace; eager last, as its event-count gate (`maxEventsEager`, undefined for none)
 * needs the count from another run.
 */
async function runTrace(
  dir: string,
  file: string,
  detectors: string[],
  opts: { maxEventsEager: number | undefined; timeoutS: number; progress: string },
): Promise<TraceRow> {
  const label = file.replace(/\.trace(\.gz)?$|\.std$/, '');
  const row: TraceRow = { label, outcomes: new Map(), agree: '' };
  const full = path.join(TRACES, dir, file);
  const order = [...detectors.filter((d) => d !== 'eager'), ...detectors.filter((d) => d === 'eager')];
  let events: number | undefined;
  for (const d of order) {
    const what = `${opts.progress} ${dir}/${file}: ${d}`;
    const gate = d === 'eager' ? opts.maxEventsEager : undefined;
    if (gate !== undefined && (events === undefined || events > gate)) {
      const why =
        events === undefined ? 'skipped (event count unknown)' : `skipped (> ${fmtInt(gate)} events)`;
      process.stderr.write(`${what}: ${why}\n`);
      row.outcomes.set(d, { kind: 'skipped', why });
      continue;
    }
    let o = await runCheck(full, d, row.infeasible !== undefined, opts.timeoutS, what);
    // Feasibility is checked by the engine, before any detector: the first rejection decides for the trace.
    if (o.kind === 'error' && row.infeasible === undefined && o.message.includes(': infeasible trace: ')) {
      row.infeasible = o.message;
      o = await runCheck(full, d, true, opts.timeoutS, `${what} --lenient`);
    }
    if (o.kind === 'ok') events = o.summary.events;
    row.outcomes.set(d, o);
  }
  return row;
}

/** The variables of a verdict map that differ from a reference one: missing, extra, other first race. */
function compareVerdicts(a: Map<string, number>, ref: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [x, i] of ref) {
    const j = a.get(x);
    if (j === undefined) out.push(`${x} not racy (reference: first race at event ${i})`);
    else if (j !== i) out.push(`${x} first race at event ${j} (reference: ${i})`);
  }
  for (const [x, j] of a) if (!ref.has(x)) out.push(`${x} racy at event ${j} (reference: not racy)`);
  return out;
}

function okOutcomes(row: TraceRow, precise: boolean): [string, Extract<Outcome, { kind: 'ok' }>][] {
  return [...row.outcomes].filter(
    (e): e is [string, Extract<Outcome, { kind: 'ok' }>] => e[1].kind === 'ok' && isPrecise(e[0]) === precise,
  );
}

/**
 * The agreement cell of a row: the precise detectors that ran, compared with the first of them.
 * Disagreements are appended to `log` (one line per detector and variable, at most 10 per detector).
 */
function agreement(dir: string, row: TraceRow, log: string[]): string {
  const ok = okOutcomes(row, true);
  const planned = [...row.outcomes.keys()].filter(isPrecise).length;
  if (ok.length < 2) return planned < 2 ? 'n/a' : `n/a (${ok.length} of ${planned} ran)`;
  const [refName, ref] = ok[0];
  const bad: string[] = [];
  for (const [name, o] of ok.slice(1)) {
    const diff = compareVerdicts(o.firstRaces, ref.firstRaces);
    if (diff.length === 0) continue;
    bad.push(`${name} ≠ ${refName} (${diff.length} variable${diff.length === 1 ? '' : 's'})`);
    const where = `${dir}/${row.label}${row.infeasible === undefined ? '' : ' (infeasible trace, --lenient)'}`;
    for (const line of diff.slice(0, 10)) log.push(`${where}: ${name} vs ${refName}: ${line}`);
    if (diff.length > 10) log.push(`${where}: ${name} vs ${refName}: ${diff.length - 10} more`);
  }
  if (bad.length > 0) return `**DISAGREE: ${bad.join('; ')}**`;
  return ok.length === planned ? `yes (${ok.length})` : `yes (${ok.length} of ${planned} ran)`;
}

/** Eraser's false alarms (warned, not racy for any precise detector) and misses (the converse). */
function eraserCounts(row: TraceRow): { falseAlarms: string; missed: string } {
  const eraser = row.outcomes.get('eraser');
  const precise = okOutcomes(row, true);
  if (eraser?.kind !== 'ok' || precise.length === 0) return { falseAlarms: '', missed: '' };
  const racy = new Set(precise.flatMap(([, o]) => [...o.firstRaces.keys()]));
  const warned = eraser.firstRaces;
  return {
    falseAlarms: fmtInt([...warned.keys()].filter((x) => !racy.has(x)).length),
    missed: fmtInt([...racy].filter((x) => !warned.has(x)).length),
  };
}

/** The cells of one detector: `vars / locs / events`, and seconds. */
function cells(o: Outcome | undefined): [string, string] {
  switch (o?.kind) {
    case undefined:
      return ['', ''];
    case 'ok': {
      const s = o.summary;
      return [
        `${fmtInt(s.racyVariables)} / ${fmtInt(s.racyLocations)} / ${fmtInt(s.racyEvents)}`,
        (s.timeMs / 1000).toFixed(2),
      ];
    }
    case 'skipped':
      return [o.why, ''];
    case 'timeout':
      return [`timeout (${o.seconds} s)`, ''];
    case 'error':
      return [`error: ${o.message}`, ''];
  }
}

const escapeCell = (s: string): string => s.replaceAll('|', '\\|');

function table(r: DirResult, detectors: string[]): string[] {
  const hasEraser = detectors.includes('eraser');
  const head = ['trace', 'events', ...detectors.flatMap((d) => [`${d} vars / locs / events`, 's'])];
  head.push('precise agree');
  if (hasEraser) head.push('eraser false alarms', 'eraser missed');
  const align = head.map((h) => (h === 'trace' || h.endsWith('agree') ? '---' : '---:'));
  const lines = [`| ${head.join(' | ')} |`, `|${align.join('|')}|`];
  for (const row of r.rows) {
    if (row.infeasible !== undefined) {
      const cols = [row.label, '', `infeasible: ${escapeCell(row.infeasible)}`];
      lines.push(`| ${[...cols, ...Array(head.length - cols.length).fill('')].join(' | ')} |`);
    }
    const ok = [...row.outcomes.values()].find((o) => o.kind === 'ok');
    const s = ok?.kind === 'ok' ? ok.summary : undefined;
    const label =
      row.infeasible === undefined
        ? row.label
        : `${row.label} --lenient (${s === undefined ? '?' : fmtInt(s.warnings)} infeasible events accepted)`;
    const cols = [label, s === undefined ? '' : fmtInt(s.events)];
    for (const d of detectors) cols.push(...cells(row.outcomes.get(d)).map(escapeCell));
    cols.push(row.agree);
    if (hasEraser) {
      const e = eraserCounts(row);
      cols.push(e.falseAlarms, e.missed);
    }
    lines.push(`| ${cols.join(' | ')} |`);
  }
  return lines;
}

function markdown(
  results: DirResult[],
  pending: string[],
  o: {
    command: string;
    detectors: string[];
    maxEventsEager: number | undefined;
    timeoutS: number;
    startedAt: Date;
  },
): string {
  const wallS = (Date.now() - o.startedAt.getTime()) / 1000;
  const L: string[] = ['# Results on real traces', ''];
  L.push(
    `Generated by \`${o.command}\` (scripts/results.ts), started ${o.startedAt.toISOString()}, ` +
      `wall time ${(wallS / 60).toFixed(1)} min. Machine: ${describeMachine()}.`,
    '',
    'Traces: `../shared/traces/` (provenance: `../shared/traces/PROVENANCE.md`; not part of this repository). ' +
      'Each (trace, detector) ran `goldilocks check --json` (src/cli/main.ts) in a fresh process, ' +
      `with a limit of ${o.timeoutS} s per run; goldilocks with its default options (every race checked, ` +
      `not \`--first-race-only\`)` +
      (o.maxEventsEager === undefined
        ? '.'
        : `; eager only on traces of at most ${fmtInt(o.maxEventsEager)} events.`),
    '',
    '## How to read this',
    '',
    'Each detector cell is *racy variables / racy locations / racy events* as in the JSON summary ' +
      '(docs/REPORT.md): variables with at least one race; distinct source locations of racy events ' +
      "(RAPID's racy lines); events at which at least one race was declared. *s* is the `timeMs` of the " +
      'summary in seconds: parse + detect, without Node startup. *precise agree*: whether the precise detectors ' +
      'that ran (all but eraser) gave the same verdicts — the same racy variables and, for each, the same ' +
      'index of its first racy event; `yes (n)` counts the detectors compared. *eraser false alarms*: ' +
      'variables Eraser warns about that no precise detector finds racy; *eraser missed*: variables a precise ' +
      'detector finds racy that Eraser does not warn about (e.g. accesses to an object before it escapes ' +
      'to a second thread are not checked).',
    '',
    'Racy variables and first races are what the precise detectors must agree on. Racy events and racy ' +
      "locations after a variable's first race legitimately differ, because the detectors check different " +
      'pairs of accesses: goldilocks and eager check each access against the last write and, for a write, the ' +
      'last read of every thread since that write; DJIT+ keeps the last read and the last write of every ' +
      'thread, so it also finds races with older writes of other threads, and skips a read (write) in the ' +
      'same epoch as the same thread’s previous read (write); FastTrack skips same-epoch accesses too and ' +
      'keeps one write epoch, and one read epoch until reads are concurrent. Each reports at most one race ' +
      'per access.',
    '',
    'A trace that the checker rejects as infeasible has a row with the error, followed by a row of the ' +
      'same trace checked with `--lenient` (infeasible events accepted as counted warnings).',
    '',
  );
  const all: string[] = [];
  for (const r of results) {
    L.push(`## ${r.dir}/ (${r.rows.length} traces)`, '', ...table(r, o.detectors), '');
    all.push(...r.disagreements);
  }
  L.push('## Disagreements among the precise detectors', '');
  if (all.length === 0) L.push(results.length === 0 ? 'No directory completed.' : 'None.');
  else L.push(...all.map((d) => `- ${escapeCell(d)}`));
  L.push('');
  if (pending.length > 0) L.push(`**Incomplete run:** not run yet: ${pending.join(', ')}.`, '');
  return L.join('\n');
}

function list(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dirs: { type: 'string', default: DEFAULT_DIRS },
      detectors: { type: 'string', default: DETECTORS.join(',') },
      'max-events-eager': { type: 'string' },
      timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_S) },
      out: { type: 'string', default: 'docs/RESULTS.md' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const chosen = new Set(list(values.detectors));
  for (const d of chosen)
    if (!(DETECTORS as readonly string[]).includes(d))
      throw new Error(`unknown detector '${d}' (one of ${DETECTORS.join(', ')})`);
  const detectors = DETECTORS.filter((d) => chosen.has(d));
  const max = values['max-events-eager'];
  const maxEventsEager = max === undefined ? undefined : parseCount(max, '--max-events-eager');
  const timeoutS = parseCount(values.timeout, '--timeout');
  if (timeoutS < 1) throw new Error('--timeout must be at least 1 second');
  const out = path.resolve(ROOT, values.out);
  // Refuse a file without the markers now, not after the first directory's runs.
  if (existsSync(out)) replaceSection(readFileSync(out, 'utf8'), 'results', '');
  if (!existsSync(TRACES)) {
    process.stderr.write(`results: ${TRACES} is absent; skipping (nothing run, ${values.out} not written)\n`);
    return;
  }
  const dirs = list(values.dirs);
  for (const d of dirs)
    if (!existsSync(path.join(TRACES, d))) throw new Error(`--dirs: ${path.join(TRACES, d)} is absent`);

  const command = `npm run results${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const startedAt = new Date();
  const files = dirs.map((d) =>
    readdirSync(path.join(TRACES, d))
      .filter((f) => statSync(path.join(TRACES, d, f)).isFile() && f !== 'PROVENANCE.md')
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
  );
  const total = files.reduce((n, f) => n + f.length, 0);
  const results: DirResult[] = [];
  let done = 0;
  for (const [k, dir] of dirs.entries()) {
    const result: DirResult = { dir, rows: [], disagreements: [] };
    for (const f of files[k]) {
      done++;
      const progress = `[${done}/${total} traces, ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s]`;
      const row = await runTrace(dir, f, detectors, { maxEventsEager, timeoutS, progress });
      result.rows.push(row);
      const log: string[] = [];
      row.agree = agreement(dir, row, log);
      for (const line of log) process.stderr.write(`\n!!! DISAGREEMENT: ${line}\n\n`);
      result.disagreements.push(...log);
    }
    results.push(result);
    mkdirSync(path.dirname(out), { recursive: true });
    const md = markdown(results, dirs.slice(k + 1), {
      command,
      detectors,
      maxEventsEager,
      timeoutS,
      startedAt,
    });
    writeSection(out, 'results', md);
    process.stderr.write(`${dir}/ done; wrote ${path.relative(ROOT, out)}\n`);
  }
  const all = results.flatMap((r) => r.disagreements);
  process.stderr.write(
    all.length === 0
      ? 'the precise detectors agree on every trace where more than one ran\n'
      : `!!! ${all.length} disagreement lines among the precise detectors (see ${values.out})\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`results: ${(e as Error).message}\n`);
  process.exit(1);
});
