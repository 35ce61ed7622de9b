/**
 * The JSON report of both front ends, schema `goldilocks-report/1` (docs/REPORT.md): its types, the empty report
 * the builders fill (offline `jsonReport` in ./report.ts, live `liveReport` in src/live/races.ts, the merge of a
 * `goldilocks run`'s per-process reports in src/cli/run.ts), and the one writer of its text.
 */
import { writeFileSync } from 'node:fs';
import type { RaceAccess, RaceRecord } from './race.js';

/** Version of the JSON report schema (docs/REPORT.md). Bumped on any incompatible change. */
export const REPORT_SCHEMA = 'goldilocks-report/1';

/** One access of a race, as listed (see {@link RaceAccess}). */
export type JsonAccess = RaceAccess;

/** A race as listed: the first race of its pair of source locations, and how many races the pair produced. */
export interface JsonRace extends RaceRecord {
  /** How many races this pair of source locations produced. */
  count: number;
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
  /** Live only: the Node.js processes whose reports this one sums. */
  processes?: number;
  /** Races suppressed (`--suppressions`; present with it): counted here, not in the racy counts. */
  suppressed?: number;
  /** Live only: races on bytes annotated `benignRace` (goldilocks/annotations; present when some). */
  benign?: number;
}

/** A suppression and how many races it suppressed, as the JSON report lists it (`suppressions`). */
export interface SuppressionCount {
  /** `race:<pattern>` or `race_top:<pattern>`, as written. */
  suppression: string;
  /** Where: `file:line`. */
  at: string;
  /** Races it suppressed (every race, not only the first of a pair of locations). */
  matched: number;
}

/** Races on bytes annotated benign by one reason (`benignRace(view, index, length, reason)`). */
export interface BenignCount {
  reason: string;
  count: number;
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
  /**
   * `goldilocks run`: the modules the rewriter could not parse and that ran uninstrumented (file paths, or URLs for
   * ES modules), sorted; absent when there is none.
   */
  unchecked?: string[];
  /** `--suppressions`: every suppression of the file and how many races it suppressed (./suppressions.ts). */
  suppressions?: SuppressionCount[];
  /** Live: the races on bytes annotated benign, by reason (present when some). */
  benign?: BenignCount[];
}

/**
 * A report of `detector` on `input` with no events and no races, for a builder to fill: `input.format` is `live`
 * for a run (then `summary.processes` is 0, and no gzip nor skipped lines).
 */
export function emptyReport(detector: string, precise: boolean, input: JsonReport['input']): JsonReport {
  return {
    schema: REPORT_SCHEMA,
    detector,
    precise,
    input,
    summary: {
      events: 0,
      threads: 0,
      locks: 0,
      volatiles: 0,
      variables: 0,
      racyEvents: 0,
      racyVariables: 0,
      racyLocations: 0,
      racePairs: 0,
      warnings: 0,
      timeMs: 0,
      eventsPerSecond: 0,
      ...(input.format === 'live' ? { processes: 0 } : {}),
    },
    racyVariables: [],
    firstRaces: [],
    races: [],
    racesOmitted: 0,
    stats: {},
  };
}

/** The input of a live run of `program` (no trace file: `format` is `live`). */
export const liveInput = (program: string): JsonReport['input'] => ({
  file: program,
  format: 'live',
  gzip: false,
  skippedLines: {},
});

/** Events per second over `timeMs` milliseconds, rounded; 0 when no time passed. */
export const eventsPerSecond = (events: number, timeMs: number): number =>
  timeMs > 0 ? Math.round((events / timeMs) * 1000) : 0;

/** A report (or the array of one per detector) as written: indented JSON and a newline. */
export const jsonText = (report: JsonReport | JsonReport[]): string => `${JSON.stringify(report, null, 2)}\n`;

/** Writes {@link jsonText} of `report` to `file`. @throws the file system's error when `file` cannot be written. */
export function writeJsonReport(file: string, report: JsonReport | JsonReport[]): void {
  writeFileSync(file, jsonText(report));
}
