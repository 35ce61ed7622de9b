/**
 * Race reports of the live runtime: `DataRaceException`, the text report on stderr (in the manner of
 * ThreadSanitizer's), deduplication by pair of source locations across all threads, and the JSON report in the
 * offline schema (`goldilocks-report/1`, docs/REPORT.md).
 *
 * Race records live in the shared state (string heap + the `CTL` race tables), so any thread — the main thread at
 * exit, or a worker that aborts the process — can write the JSON report of every thread's races.
 */
import { writeFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pc from 'picocolors';
import type { JsonAccess, JsonRace, JsonReport } from '../report/report.js';
import { REPORT_SCHEMA } from '../report/report.js';
import { A, CTL, getString, lock, putString, STATS, type StateViews, unlock } from './memory/state.js';
import { isPrecise, LIVE_DETECTORS } from './options.js';

/** One access of a live race (the offline `JsonAccess`; `index` is -1: a live run has no event indices). */
export interface LiveAccess extends JsonAccess {
  /** The racing access's stack (the current access only). */
  stack?: string;
}

/** Where the racing bytes are. */
export interface RaceLocation {
  /** Process-unique id of the SharedArrayBuffer (`sab#id` in reports). */
  buffer: number;
  /** First racing byte. */
  byteOffset: number;
  /** Bytes of the current access. */
  size: number;
  /** Constructor name of the view (`Int32Array`, `DataView`, ...) or the bulk method (`TypedArray#set`). */
  elementType: string;
  /** `sab#<buffer>+<byteOffset>`: the racy variable's name in reports. */
  variable: string;
}

/** A live race: what `DataRaceException` carries and what the JSON report lists. */
export interface LiveRace {
  location: RaceLocation;
  current: LiveAccess;
  previous: LiveAccess;
  /**
   * Goldilocks: the lockset computed for the previous access at the current one (names: `T3`, `lock@sab#1+8`...);
   * FastTrack: empty (the detail gives the epochs); Eraser: the sync-library locks held at the current access.
   */
  lockset: string[];
  detail: string;
}

/**
 * Thrown in the racing thread before the racy access executes (PLDI'07 §1): the access does not happen. A program
 * may catch it and go on.
 */
export class DataRaceException extends Error {
  override readonly name = 'DataRaceException';
  readonly location: RaceLocation;
  readonly current: LiveAccess;
  readonly previous: LiveAccess;
  readonly lockset: string[];

  constructor(race: LiveRace) {
    super(
      `data race on ${race.location.variable} (${race.location.elementType}): ${race.current.access} by thread ${race.current.thread} at ${race.current.location} races with ${race.previous.access} by thread ${race.previous.thread} at ${race.previous.location}`,
    );
    this.location = race.location;
    this.current = race.current;
    this.previous = race.previous;
    this.lockset = race.lockset;
  }
}

/** A site string (`file:line:column`) as shown: file URLs as paths. */
export function siteText(file: string, line: number, column: number): string {
  const f = file.startsWith('file:') ? fileURLToPath(file) : file;
  return `${f}:${line}:${column}`;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}

const COUNTS = CTL.dedup + CTL.dedupSize;
const RECORDS = COUNTS + CTL.dedupSize;
const ORDER = RECORDS + CTL.dedupSize;

/**
 * Records a race. @returns true when its pair of source locations is new (print it), false when it only counts.
 */
export function recordRace(s: StateViews, race: LiveRace): boolean {
  const pair = [race.current.location, race.previous.location].sort().join('\n');
  const h = hash(pair);
  const ctl = s.ctl;
  lock(s, ctl, CTL.raceLock);
  try {
    const size = CTL.dedupSize;
    for (let i = 0, slot = (h % size) >>> 0; i < size; i++, slot = (slot + 1) % size) {
      const at = CTL.dedup + slot;
      if (ctl[at] === h) {
        ctl[COUNTS + slot]++;
        return false;
      }
      if (ctl[at] === 0) {
        ctl[at] = h;
        ctl[COUNTS + slot] = 1;
        ctl[RECORDS + slot] = putString(s, JSON.stringify(race));
        ctl[ORDER + ctl[CTL.raceCount]] = slot;
        A.store(ctl, CTL.raceCount, ctl[CTL.raceCount] + 1);
        return true;
      }
    }
    return true; // table full: print, not listed in the JSON report
  } finally {
    unlock(ctl, CTL.raceLock);
  }
}

/**
 * The text report of one race (stderr), like ThreadSanitizer's; a `potential data race` when the detector is not
 * precise (Eraser).
 */
export function textRace(race: LiveRace, colors: boolean, precise = true): string {
  const c = colors ? pc : pc.createColors(false);
  const who = (a: LiveAccess) => `${a.atomic ? 'atomic ' : ''}${a.access}`;
  const kind = precise ? 'data race' : 'potential data race';
  const out = [
    '==================',
    c.red(`WARNING: goldilocks: ${kind} on ${c.bold(race.location.variable)}`) +
      ` (${race.location.elementType}, ${race.location.size} bytes)`,
    `  ${c.bold(who(race.current))} by thread ${race.current.thread} at ${race.current.location}`,
  ];
  if (race.current.stack) {
    for (const line of race.current.stack.split('\n')) out.push(`    ${line.trim()}`);
  }
  out.push(
    `  previous ${c.bold(who(race.previous))} by thread ${race.previous.thread} at ${race.previous.location}`,
  );
  if (!precise || race.lockset.length > 0)
    out.push(`  ${precise ? 'lockset' : 'locks held'}: {${race.lockset.join(', ')}}`);
  out.push(`  decided by: ${race.detail}`);
  out.push(`SUMMARY: goldilocks: ${kind} ${race.current.location} vs ${race.previous.location}`);
  out.push('==================');
  return `${out.join('\n')}\n`;
}

/** Writes `text` to stderr synchronously (a racing worker may be about to die). */
export function printErr(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    process.stderr.write(text);
  }
}

/** The JSON report of every race recorded so far in this process (schema `goldilocks-report/1`). */
export function liveReport(s: StateViews, program: string, timeMs: number): JsonReport {
  const ctl = s.ctl;
  const n = A.load(ctl, CTL.raceCount);
  const races: JsonRace[] = [];
  const variables: string[] = [];
  const locations = new Set<string>();
  for (let i = 0; i < n; i++) {
    const slot = ctl[ORDER + i];
    const r = JSON.parse(getString(s, ctl[RECORDS + slot])) as LiveRace;
    races.push({
      variable: r.location.variable,
      count: A.load(ctl, COUNTS + slot),
      current: r.current,
      previous: r.previous,
      lockset: r.lockset,
      detail: r.detail,
    });
    if (!variables.includes(r.location.variable)) variables.push(r.location.variable);
    locations.add(r.current.location);
    locations.add(r.previous.location);
  }
  const stats: Record<string, number> = {};
  STATS.forEach((name, i) => {
    stats[name] = A.load(ctl, CTL.stats + i);
  });
  stats.syncCells = A.load(ctl, CTL.listEnd);
  const events = stats.accesses + stats.sameEpoch;
  return {
    schema: REPORT_SCHEMA,
    detector: LIVE_DETECTORS[s.state.settings.detector],
    precise: isPrecise(s.state.settings.detector),
    input: { file: program, format: 'live', gzip: false, skippedLines: {} },
    summary: {
      events,
      threads: A.load(ctl, CTL.threadCount),
      locks: 0,
      volatiles: 0,
      variables: A.load(ctl, CTL.nextBuffer),
      racyEvents: stats.races,
      racyVariables: variables.length,
      racyLocations: locations.size,
      racePairs: races.length,
      warnings: 0,
      timeMs: Math.round(timeMs * 10) / 10,
      eventsPerSecond: timeMs > 0 ? Math.round((events / timeMs) * 1000) : 0,
    },
    racyVariables: variables,
    firstRaces: variables.map((variable) => ({ variable, index: -1 })),
    races,
    racesOmitted: 0,
    stats,
  };
}

/** Writes {@link liveReport} to `file`. */
export function writeLiveReport(s: StateViews, file: string, program: string, timeMs: number): void {
  writeFileSync(file, `${JSON.stringify(liveReport(s, program, timeMs), null, 2)}\n`);
}
