import pc from 'picocolors';
import type { CheckResult, DetectorResult } from '../check.js';
import type { AccessRef } from '../detectors/detector.js';
import { CHECK_DECISIONS } from '../detectors/goldilocks/goldilocks.js';
import type { Symbols } from '../model/symbols.js';

/** Version of the JSON report schema (docs/REPORT.md). Bumped on any incompatible change. */
export const REPORT_SCHEMA = 'goldilocks-report/1';

export interface JsonAccess {
  /** 0-based position of the event among the trace's events. */
  index: number;
  thread: string;
  access: 'read' | 'write';
  transactional: boolean;
  /** The data access of an atomic operation (`ard`/`awd` in a trace; `Atomics.*` live): an ECMA-262 seq-cst event. */
  atomic: boolean;
  /** Source location as written in the trace ('' when none). */
  location: string;
}

export interface JsonRace {
  variable: string;
  /** How many races this pair of source locations produced. */
  count: number;
  current: JsonAccess;
  previous: JsonAccess;
  lockset?: string[];
  detail: string;
}

export interface JsonSummary {
  events: number;
  threads: number;
  locks: number;
  volatiles: number;
  variables: number;
  racyEvents: number;
  racyVariables: number;
  racyLocations: number;
  /** Distinct pairs of source locations that raced. */
  racePairs: number;
  /** Infeasible events accepted with --lenient. */
  warnings: number;
  timeMs: number;
  eventsPerSecond: number;
}

export interface JsonReport {
  schema: typeof REPORT_SCHEMA;
  detector: string;
  precise: boolean;
  input: { file: string; format: string; gzip: boolean; skippedLines: Record<string, number> };
  summary: JsonSummary;
  /** Names as written in the trace, in order of first race. */
  racyVariables: string[];
  /** Event index of the first race on each racy variable (the verdict all precise detectors agree on). */
  firstRaces: { variable: string; index: number }[];
  races: JsonRace[];
  /** Races left out by --max-reports. */
  racesOmitted: number;
  stats: Record<string, number>;
}

function access(s: Symbols, a: AccessRef): JsonAccess {
  return {
    index: a.index,
    thread: s.threads.name(a.thread),
    access: a.write ? 'write' : 'read',
    transactional: a.xact,
    atomic: a.atomic,
    location: s.locations.name(a.loc),
  };
}

/** Builds the JSON report of one detector's result (schema: docs/REPORT.md). */
export function jsonReport(r: CheckResult, d: DetectorResult, file: string, maxReports: number): JsonReport {
  const s = r.symbols;
  const c = d.races;
  const groups = [...c.groups.values()];
  const races: JsonRace[] = groups.slice(0, maxReports).map((g) => ({
    variable: s.variables.name(g.race.variable),
    count: g.count,
    current: access(s, g.race.current),
    previous: access(s, g.race.previous),
    ...(g.race.lockset ? { lockset: g.race.lockset } : {}),
    detail: g.race.detail,
  }));
  const events = r.engine.events;
  return {
    schema: REPORT_SCHEMA,
    detector: d.detector.name,
    precise: d.detector.name !== 'eraser',
    input: {
      file,
      format: r.input.format,
      gzip: r.input.gzip,
      skippedLines: Object.fromEntries(r.input.skipped),
    },
    summary: {
      events,
      threads: s.threads.size,
      locks: s.locks.size,
      volatiles: s.volatiles.size,
      variables: s.variables.size,
      racyEvents: c.racyEvents,
      racyVariables: c.firstRace.size,
      racyLocations: c.racyLocations.size,
      racePairs: groups.length,
      warnings: r.engine.warnings,
      timeMs: Math.round(r.timeMs * 10) / 10,
      eventsPerSecond: r.timeMs > 0 ? Math.round((events / r.timeMs) * 1000) : 0,
    },
    racyVariables: [...c.firstRace.keys()].map((x) => s.variables.name(x)),
    firstRaces: [...c.firstRace].map(([x, index]) => ({ variable: s.variables.name(x), index })),
    races,
    racesOmitted: Math.max(0, groups.length - maxReports),
    stats: d.detector.stats(),
  };
}

/**
 * `n` as `n.toLocaleString('en-US')` writes it (`1,234,567`); a non-negative safe integer without ICU's number
 * formatter, whose first use costs about 20 ms of a `goldilocks check` start (issue 21 §4).
 */
function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

function describe(a: JsonAccess, colors: boolean): string {
  const what = `${a.transactional ? 'transactional ' : ''}${a.atomic ? 'atomic ' : ''}${a.access}`;
  const where = a.location === '' ? '<no location>' : a.location;
  return `${colors ? pc.bold(what) : what} by thread ${a.thread} at ${where} (event ${a.index})`;
}

/** Renders a JSON report as text for people, in the manner of ThreadSanitizer's reports. */
export function textReport(j: JsonReport, options: { colors: boolean; stats: boolean }): string {
  const c = options.colors ? pc : pc.createColors(false);
  const out: string[] = [];
  const kind = j.precise ? 'data race' : 'potential data race (Eraser lockset violation)';
  for (const r of j.races) {
    out.push('==================');
    out.push(c.red(`WARNING: ${kind} on ${c.bold(r.variable)}`) + c.dim(`  [${j.detector}]`));
    out.push(`  ${describe(r.current, options.colors)}`);
    out.push(`  ${j.precise ? 'previous' : 'last other'} ${describe(r.previous, options.colors)}`);
    if (r.lockset)
      out.push(`  ${j.detector === 'eraser' ? 'locks held' : 'lockset'}: {${r.lockset.join(', ')}}`);
    out.push(`  decided by: ${r.detail}`);
    if (r.count > 1) out.push(c.dim(`  (this pair of locations raced ${r.count} times)`));
  }
  if (j.races.length > 0) out.push('==================');
  if (j.racesOmitted > 0) out.push(c.dim(`${j.racesOmitted} more location pairs not shown (--max-reports)`));
  if (options.stats) {
    out.push(`statistics (${j.detector}):`);
    const { checks, walks, walkCells } = j.stats;
    for (const [k, v] of Object.entries(j.stats)) {
      let share = '';
      if ((CHECK_DECISIONS as readonly string[]).includes(k) && checks > 0)
        share = ` (${((100 * v) / checks).toFixed(1)}% of checks)`;
      else if (k === 'walks' && v > 0) share = ` (mean ${(walkCells / walks).toFixed(1)} cells)`;
      out.push(`  ${k.padEnd(24)} ${grouped(v)}${share}`);
    }
  }
  const s = j.summary;
  const rate =
    s.eventsPerSecond >= 1e6 ? `${(s.eventsPerSecond / 1e6).toFixed(2)}M` : grouped(s.eventsPerSecond);
  const verdict =
    s.racyVariables === 0
      ? c.green('no races')
      : c.red(
          `${s.racyVariables} racy variables, ${s.racyEvents} racy events, ${s.racyLocations} racy locations`,
        );
  out.push(
    `SUMMARY: ${j.detector}: ${verdict} in ${grouped(s.events)} events ` +
      `(${s.threads} threads, ${s.locks} locks, ${s.volatiles} volatiles, ${s.variables} variables; ` +
      `${(s.timeMs / 1000).toFixed(2)} s, ${rate} events/s)` +
      (s.warnings > 0 ? c.yellow(` — ${s.warnings} infeasible events accepted (--lenient)`) : ''),
  );
  return `${out.join('\n')}\n`;
}
