/**
 * The report of `goldilocks check`: the JSON report of one detector's result (./json.ts, docs/REPORT.md) and its
 * text (./text.ts) with the detector's counters (`--stats`).
 */
import pc from 'picocolors';
import type { CheckResult, DetectorResult } from '../check.js';
import { CHECK_DECISIONS } from '../detectors/goldilocks/short-circuit.js';
import { emptyReport, eventsPerSecond, type JsonRace, type JsonReport } from './json.js';
import { raceOf } from './race.js';
import { grouped, textRace, textSummary } from './text.js';

/** Builds the JSON report of one detector's result (schema: docs/REPORT.md). */
export function jsonReport(r: CheckResult, d: DetectorResult, file: string, maxReports: number): JsonReport {
  const s = r.symbols;
  const c = d.races;
  const precise = d.detector.name !== 'eraser';
  const groups = [...c.groups.values()];
  const races: JsonRace[] = groups
    .slice(0, maxReports)
    .map((g) => ({ ...raceOf(s, g.race, precise), count: g.count }));
  const events = r.engine.events;
  const j = emptyReport(d.detector.name, precise, {
    file,
    format: r.input.format,
    gzip: r.input.gzip,
    skippedLines: Object.fromEntries(r.input.skipped),
  });
  j.summary = {
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
    eventsPerSecond: eventsPerSecond(events, r.timeMs),
  };
  j.racyVariables = [...c.firstRace.keys()].map((x) => s.variables.name(x));
  j.firstRaces = [...c.firstRace].map(([x, index]) => ({ variable: s.variables.name(x), index }));
  j.races = races;
  j.racesOmitted = Math.max(0, groups.length - maxReports);
  j.stats = d.detector.stats();
  return j;
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

/** Renders a JSON report as text for people: its races (./text.ts), the omitted ones, `--stats`, the summary. */
export function textReport(j: JsonReport, options: { colors: boolean; stats: boolean }): string {
  const c = options.colors ? pc : pc.createColors(false);
  let out = '';
  for (const r of j.races)
    out += textRace(r, { detector: j.detector, colors: options.colors, count: r.count });
  if (j.racesOmitted > 0)
    out += `${c.dim(`${j.racesOmitted} more location pairs not shown (--max-reports)`)}\n`;
  if (options.stats) out += `${statisticsText(j).join('\n')}\n`;
  return out + textSummary(j, options.colors);
}
