/**
 * The text a person reads, for `goldilocks check` and `goldilocks run` alike, in the manner of ThreadSanitizer's
 * reports: one block per race between two `==================` lines (`WARNING: <detector>: data race on <variable>`,
 * the current access, its stack when known, the `previous` access and its stack (`--history`), live the racing
 * memory, the lockset, how it was decided), the `--stats`
 * section, and one `SUMMARY: <detector>: ...` line of counts. `goldilocks check --json` does not load it.
 */
import pc from 'picocolors';
import { CHECK_DECISIONS } from '../detectors/goldilocks/short-circuit.js';
import type { JsonReport } from './json.js';
import type { Allocation, MemoryLocation, RaceAccess, RaceRecord } from './race.js';
import { excusedStatistics } from './suppressions.js';

const RULE = '==================';

type Palette = ReturnType<typeof pc.createColors>;
const COLORED = pc.createColors(true);
const PLAIN = pc.createColors(false);
/** ANSI colours when `colors` (whatever picocolors guessed of stdout), else none. */
const palette = (colors: boolean): Palette => (colors ? COLORED : PLAIN);

/**
 * Whether text for `stream` is coloured: never with `NO_COLOR` set and not empty (no-color.org), always with
 * `FORCE_COLOR` set to anything but `0` or `false`, else on a terminal (`isTTY`) whose `TERM` is not `dumb`.
 */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** What a race report shows beside the race: who decided it, how often its pair of locations raced, colours. */
export interface RaceTextOptions {
  /** The detector's name (`goldilocks`, `fasttrack`, ...). */
  detector: string;
  /** ANSI colours (picocolors). */
  colors: boolean;
  /** Races of this pair of source locations; shown when more than one. */
  count?: number;
}

/** `write by thread T2 at <location>`; a transactional access: `write inside a transaction committed at <location> by thread T2`. */
function describe(a: RaceAccess, c: Palette): string {
  const where = a.location === '' ? '<no location>' : a.location;
  const event = a.index >= 0 ? ` (event ${a.index})` : '';
  if (a.transactional)
    return `${c.bold(a.access)} inside a transaction committed at ${where} by thread ${a.thread}${event}`;
  return `${c.bold(`${a.atomic ? 'atomic ' : ''}${a.access}`)} by thread ${a.thread} at ${where}${event}`;
}

const plural = (n: number, what: string): string => `${grouped(n)} ${what}${n === 1 ? '' : 's'}`;
const bytes = (first: number, size: number): string =>
  size === 1 ? `byte ${first}` : `bytes ${first}–${first + size - 1}`;

/**
 * The racing memory in the program's words (live): `Int32Array element [3] (bytes 12–15) of a SharedArrayBuffer
 * of 16 bytes created by thread T0 at file:17:31`; an access that is not an element's (a bulk method, an `Atomics`
 * call, a DataView) is named by its first racing byte.
 */
export function memoryText(m: MemoryLocation, a: Allocation | undefined): string {
  const what =
    m.index !== undefined && m.start !== undefined
      ? `${m.elementType} element [${m.index}] (${bytes(m.start, m.size)})`
      : `${m.elementType} of ${plural(m.size, 'byte')} at byte ${m.byteOffset}`;
  if (a === undefined) return `${what} of sab#${m.buffer}`;
  const made = a.location
    ? `created by thread ${a.thread} at ${a.location}`
    : `created outside instrumented code (first met by thread ${a.thread})`;
  return `${what} of a ${a.kind} of ${plural(a.bytes, 'byte')} ${made}`;
}

/**
 * `n` as `n.toLocaleString('en-US')` writes it (`1,234,567`); a non-negative safe integer without ICU's number
 * formatter, whose first use costs about 20 ms of a `goldilocks check` start (issue 21 §4).
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * How a race was decided, in one plain sentence for a live precise race (the detector's own terms in parentheses);
 * the detector's terms alone otherwise (`goldilocks check`'s text is unchanged).
 */
export function decision(race: RaceRecord): string {
  if (race.memory === undefined || !race.precise) return race.detail;
  const p = race.previous;
  const c = race.current;
  // the previous access's own thread is in the lockset by rule 1, not handed the memory
  const handed = (race.locksetNames ?? []).filter((n) => HANDED.test(n) && !n.startsWith(`${p.thread} (`));
  return (
    `nothing orders ${p.thread}'s ${p.access} before ${c.thread}'s ${c.access}: no lock, Atomics operation, ` +
    `message, or thread start or join hands the memory from ${p.thread} to ${c.thread} in between` +
    (handed.length > 0 ? `; it was handed on by ${handed.join(' and by ')}, not to ${c.thread}` : '') +
    ` (${race.detail})`
  );
}

/** The lockset names of messages and worker starts (src/live/lock-names.ts): the edges that handed memory on. */
const HANDED = /^(?:(?:BroadcastChannel )?postMessage from |message #|T\d+ \(Worker started by )/;

/**
 * The text block of one race, ending in a newline. A race that is not precise (Eraser's) is a `potential data race`
 * against the `last other` access, with the `locks held`.
 */
export function textRace(race: RaceRecord, options: RaceTextOptions): string {
  const c = palette(options.colors);
  const kind = race.precise ? 'data race' : 'potential data race (Eraser lockset violation)';
  const m = race.memory;
  const out = [
    RULE,
    c.red(`WARNING: ${options.detector}: ${kind} on ${c.bold(race.variable)}`) +
      (m ? ` (${m.elementType}, ${m.size} bytes)` : ''),
    `  ${describe(race.current, c)}`,
  ];
  if (race.current.test) out.push(`  in test '${race.current.test.name}' of ${race.current.test.file}`);
  if (race.current.stack)
    for (const line of race.current.stack.split('\n')) out.push(c.dim(`    ${line.trim()}`));
  out.push(`  ${race.precise ? 'previous' : 'last other'} ${describe(race.previous, c)}`);
  if (race.previous.stack)
    for (const line of race.previous.stack.split('\n')) out.push(c.dim(`    ${line.trim()}`));
  if (m) out.push(`  memory: ${memoryText(m, race.allocation)}`);
  const lockset = race.locksetNames ?? race.lockset;
  if (lockset) out.push(`  ${race.precise ? 'lockset' : 'locks held'}: {${lockset.join(', ')}}`);
  out.push(`  decided by: ${decision(race)}`);
  if (options.count !== undefined && options.count > 1)
    out.push(c.dim(`  (this pair of locations raced ${options.count} times)`));
  out.push(RULE);
  return `${out.join('\n')}\n`;
}

/**
 * The `SUMMARY:` line of a report, ending in a newline: the racy variables, events and locations (or `no races`)
 * in so many events, what the input held (a trace: threads, locks, volatiles, variables; a run: threads, shared
 * buffers, processes), the time and the rate, and the infeasible events accepted with `--lenient`.
 */
export function textSummary(j: JsonReport, colors: boolean): string {
  const c = palette(colors);
  const s = j.summary;
  const rate =
    s.eventsPerSecond >= 1e6 ? `${(s.eventsPerSecond / 1e6).toFixed(2)}M` : grouped(s.eventsPerSecond);
  const verdict =
    s.racyVariables === 0
      ? c.green('no races')
      : c.red(
          `${s.racyVariables} racy variables, ${s.racyEvents} racy events, ${s.racyLocations} racy locations`,
        );
  const input =
    s.processes === undefined
      ? `${s.threads} threads, ${s.locks} locks, ${s.volatiles} volatiles, ${s.variables} variables`
      : `${s.threads} threads, ${s.variables} shared buffers, ${s.processes} process${s.processes === 1 ? '' : 'es'}`;
  return (
    `SUMMARY: ${j.detector}: ${verdict} in ${grouped(s.events)} events ` +
    `(${input}; ${(s.timeMs / 1000).toFixed(2)} s, ${rate} events/s)` +
    (s.warnings > 0 ? c.yellow(` — ${s.warnings} infeasible events accepted (--lenient)`) : '') +
    excusedText(s) +
    '\n'
  );
}

/** `; N races suppressed, M benign` of a summary, when `--suppressions` was given or benign races were seen. */
function excusedText(s: JsonReport['summary']): string {
  const parts: string[] = [];
  if (s.suppressed !== undefined) parts.push(`${grouped(s.suppressed)} suppressed (--suppressions)`);
  if (s.benign) parts.push(`${grouped(s.benign)} benign (annotated)`);
  return parts.length === 0 ? '' : `; races not reported: ${parts.join(', ')}`;
}

/**
 * The `--stats` section of a report (`goldilocks check` and `goldilocks run`): one line per counter, with each check
 * decision's share of the checks (CHECK_DECISIONS, the paper's Table 1) and the mean walk length.
 */
export function statisticsText(j: JsonReport): string[] {
  const out = [`statistics (${j.detector}):`];
  const { checks, walks, walkCells } = j.stats;
  for (const [k, v] of Object.entries(j.stats)) {
    let share = '';
    if ((CHECK_DECISIONS as readonly string[]).includes(k) && checks > 0)
      share = ` (${((100 * v) / checks).toFixed(1)}% of checks)`;
    else if (k === 'walks' && v > 0) share = ` (mean ${(walkCells / walks).toFixed(1)} cells)`;
    out.push(`  ${k.padEnd(24)} ${grouped(v)}${share}`);
  }
  return out;
}

/** Renders a JSON report as text for people: its races ({@link textRace}), the omitted ones, `--stats`, the summary. */
export function textReport(j: JsonReport, options: { colors: boolean; stats: boolean }): string {
  const c = palette(options.colors);
  let out = '';
  for (const r of j.races)
    out += textRace(r, { detector: j.detector, colors: options.colors, count: r.count });
  if (j.racesOmitted > 0)
    out += `${c.dim(`${j.racesOmitted} more location pairs not shown (--max-reports)`)}\n`;
  if (options.stats) out += `${[...statisticsText(j), ...excusedStatistics(j)].join('\n')}\n`;
  return out + textSummary(j, options.colors);
}
