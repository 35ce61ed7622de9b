/**
 * The report of `goldilocks check`: the JSON report of one detector's result (./json.ts, docs/REPORT.md), with the
 * races `--suppressions` suppressed counted (./suppressions.ts). Its text,
 * with the detector's counters (`--stats`): `textReport` of ./text.ts, loaded only when the text is printed.
 */
import type { CheckResult, DetectorResult } from '../check.js';
import { emptyReport, eventsPerSecond, type JsonRace, type JsonReport } from './json.js';
import { raceOf } from './race.js';
import { type Suppression, suppressionCounts } from './suppressions.js';

/** Builds the JSON report of one detector's result (schema: docs/REPORT.md). */
export function jsonReport(
  r: CheckResult,
  d: DetectorResult,
  file: string,
  maxReports: number,
  suppressions?: readonly Suppression[],
): JsonReport {
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
  if (suppressions) {
    j.suppressions = suppressionCounts(suppressions, c.suppressed);
    j.summary.suppressed = j.suppressions.reduce((n, x) => n + x.matched, 0);
  }
  return j;
}
