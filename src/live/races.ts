/**
 * Race reports of the live runtime: `DataRaceException`, the text report of a race on stderr (../report/text.ts,
 * as `goldilocks check` prints it), deduplication by pair of source locations across all threads, and the JSON
 * report in the offline schema (`goldilocks-report/1`, ../report/json.ts, docs/REPORT.md).
 *
 * Race records (../report/race.ts) live in the shared state (string heap + the `CTL` race tables), so any thread —
 * the main thread at exit, or a worker that aborts the process — can write the JSON report of every thread's races.
 */
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { emptyReport, eventsPerSecond, type JsonRace, type JsonReport, liveInput } from '../report/json.js';
import type { MemoryLocation, RaceAccess, RaceRecord } from '../report/race.js';
import { type Suppression, suppressionCounts } from '../report/suppressions.js';
import type { Excuse } from './excuses.js';
import { CTL, lock, rawAtomics, readStat, STATS, type StateViews, unlock } from './memory/state.js';
import { getString, putString } from './memory/strings.js';
import { isPrecise, LIVE_DETECTORS } from './options.js';
import { shadowCensus } from './shadow/census.js';

/**
 * Thrown in the racing thread before the racy access executes (PLDI'07 §1): the access does not happen. A program
 * may catch it and go on.
 */
export class DataRaceException extends Error {
  override readonly name = 'DataRaceException';
  /** Where the racing bytes are, and the racy variable's name (`sab#<buffer>+<byteOffset>`). */
  readonly location: MemoryLocation & { variable: string };
  readonly current: RaceAccess;
  readonly previous: RaceAccess;
  /** The race's lockset (see {@link RaceRecord.lockset}); empty for fasttrack. */
  readonly lockset: string[];

  /** @param race a live race: its `memory` is set. */
  constructor(race: RaceRecord) {
    const location = { ...(race.memory as MemoryLocation), variable: race.variable };
    super(
      `data race on ${location.variable} (${location.elementType}): ${race.current.access} by thread ${race.current.thread} at ${race.current.location} races with ${race.previous.access} by thread ${race.previous.thread} at ${race.previous.location}`,
    );
    this.location = location;
    this.current = race.current;
    this.previous = race.previous;
    this.lockset = race.lockset ?? [];
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

/** The deduplication hash of a race: its pair of source locations (in either order) and its excuse. */
const pairHash = (current: string, previous: string, excuse?: Excuse): number =>
  hash([current, previous].sort().join('\n') + (excuse ? `\n${JSON.stringify(excuse)}` : ''));

/**
 * The slot of hash `h` in the deduplication table, or the free slot where it would go; -1 when the table is full.
 * Call holding the race lock.
 */
function dedupSlot(ctl: Int32Array, h: number): number {
  const size = CTL.dedupSize;
  for (let i = 0, slot = (h % size) >>> 0; i < size; i++, slot = (slot + 1) % size) {
    const at = ctl[CTL.dedup + slot];
    if (at === h || at === 0) return slot;
  }
  return -1;
}

/**
 * Records a race, or with `excuse` a race that is only counted (`./excuses.ts`). @returns true when its pair of
 * source locations is new (print it), false when it only counts.
 */
export function recordRace(s: StateViews, race: RaceRecord, excuse?: Excuse): boolean {
  const h = pairHash(race.current.location, race.previous.location, excuse);
  const ctl = s.ctl;
  lock(s, ctl, CTL.raceLock);
  try {
    const slot = dedupSlot(ctl, h);
    if (slot < 0) return true; // table full: print, not listed in the JSON report
    if (ctl[CTL.dedup + slot] === h) {
      ctl[COUNTS + slot]++;
      return false;
    }
    ctl[CTL.dedup + slot] = h;
    ctl[COUNTS + slot] = 1;
    ctl[RECORDS + slot] = putString(s, JSON.stringify(excuse ? { ...race, excuse } : race));
    ctl[ORDER + ctl[CTL.raceCount]] = slot;
    rawAtomics.store(ctl, CTL.raceCount, ctl[CTL.raceCount] + 1);
    return true;
  } finally {
    unlock(ctl, CTL.raceLock);
  }
}

/**
 * Counts one more occurrence of the race between source locations `current` and `previous` (no excuse) if
 * {@link recordRace} recorded it already, without its record: a race repeated in a loop then costs no stack text (a
 * stack formatted through the source maps of its frames). @returns whether it was recorded (and is now counted).
 */
export function countRecordedRace(s: StateViews, current: string, previous: string): boolean {
  const h = pairHash(current, previous);
  const ctl = s.ctl;
  lock(s, ctl, CTL.raceLock);
  try {
    const slot = dedupSlot(ctl, h);
    if (slot < 0 || ctl[CTL.dedup + slot] !== h) return false;
    ctl[COUNTS + slot]++;
    return true;
  } finally {
    unlock(ctl, CTL.raceLock);
  }
}

/** Writes `text` to stderr synchronously (a racing worker may be about to die). */
export function printErr(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    process.stderr.write(text);
  }
}

/**
 * The JSON report of every race recorded so far in this process (schema `goldilocks-report/1`) of `program`, run
 * for `timeMs` milliseconds. `racyLocations` counts the source locations of both accesses of the races listed
 * (a race repeating a listed pair of locations is only counted). Excused races (`./excuses.ts`) are counted apart:
 * per suppression of `suppressions` (all listed), and per benign reason.
 */
export function liveReport(
  s: StateViews,
  program: string,
  timeMs: number,
  suppressions?: readonly Suppression[],
): JsonReport {
  const ctl = s.ctl;
  const n = rawAtomics.load(ctl, CTL.raceCount);
  const races: JsonRace[] = [];
  const variables: string[] = [];
  const locations = new Set<string>();
  const suppressed: number[] = [];
  const benign = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const slot = ctl[ORDER + i];
    const r = JSON.parse(getString(s, ctl[RECORDS + slot])) as RaceRecord & { excuse?: Excuse };
    const count = rawAtomics.load(ctl, COUNTS + slot);
    if (r.excuse) {
      if ('benign' in r.excuse) benign.set(r.excuse.benign, (benign.get(r.excuse.benign) ?? 0) + count);
      else suppressed[r.excuse.suppression] = (suppressed[r.excuse.suppression] ?? 0) + count;
      continue;
    }
    races.push({ ...r, count });
    if (!variables.includes(r.variable)) variables.push(r.variable);
    locations.add(r.current.location).add(r.previous.location);
  }
  const stats: Record<string, number> = {};
  STATS.forEach((name, i) => {
    stats[name] = readStat(ctl, i);
  });
  stats.syncCells = rawAtomics.load(ctl, CTL.listEnd);
  stats.shadowKiB = Math.ceil(rawAtomics.load(ctl, CTL.heapTop) / 256);
  const census = shadowCensus(s);
  stats.shadowTableKiB = Math.ceil(census.tableBytes / 1024);
  stats.shadowInfoKiB = Math.ceil(census.infoBytes / 1024);
  stats.sharedInfoKiB = Math.ceil(census.sharedInfoBytes / 1024);
  stats.splitInfoKiB = Math.ceil(census.splitInfoBytes / 1024);
  stats.shadowPages = census.pages;
  stats.uniformPages = census.uniformPages;
  stats.sharedPages = census.sharedPages;
  stats.patternPages = census.patternPages;
  stats.pairedPages = census.pairedPages;
  const events = stats.accesses + stats.sameEpoch;
  const detector = s.state.settings.detector;
  const j = emptyReport(LIVE_DETECTORS[detector], isPrecise(detector), liveInput(program));
  j.summary = {
    ...j.summary,
    events,
    threads: rawAtomics.load(ctl, CTL.threadCount),
    variables: rawAtomics.load(ctl, CTL.nextBuffer),
    racyEvents: stats.races,
    racyVariables: variables.length,
    racyLocations: locations.size,
    racePairs: races.length,
    timeMs: Math.round(timeMs * 10) / 10,
    eventsPerSecond: eventsPerSecond(events, timeMs),
    processes: 1,
  };
  j.racyVariables = variables;
  j.firstRaces = variables.map((variable) => ({ variable, index: -1 }));
  j.races = races;
  j.stats = stats;
  if (suppressions && suppressions.length > 0) {
    j.suppressions = suppressionCounts(suppressions, suppressed);
    j.summary.suppressed = j.suppressions.reduce((k, x) => k + x.matched, 0);
  }
  if (benign.size > 0) {
    j.benign = [...benign].map(([reason, count]) => ({ reason, count }));
    j.summary.benign = j.benign.reduce((k, x) => k + x.count, 0);
  }
  return j;
}
