import type { Race, RaceSink } from '../detectors/detector.js';

/** A deduplicated race: the first race seen for a pair of source locations, and how often the pair raced. */
export interface RaceGroup {
  race: Race;
  count: number;
}

/**
 * Which suppression (`./suppressions.ts`) suppresses a race: its index, or -1. Called once per pair of source
 * locations (the first race of the pair decides for all).
 */
export type SuppressionOf = (r: Race) => number;

/**
 * Collects the races a detector declares: racy events (events at which at least one race is declared,
 * counted once each, like RAPID's "racy events"), racy variables (in order of first race, with the event
 * index of that first race), racy source locations (locations of racy events, like RAPID's "racy lines"),
 * and races deduplicated by the unordered pair of source locations (by variable when neither access has a
 * location), keeping the first race of each pair and a count. With `suppressionOf` (`--suppressions`), a
 * suppressed race is only counted, per suppression, in {@link suppressed}.
 */
export class RaceCollector implements RaceSink {
  racyEvents = 0;
  /** Variable id -> index of the first event at which a race on it was declared. */
  readonly firstRace = new Map<number, number>();
  readonly racyLocations = new Set<number>();
  readonly groups = new Map<string, RaceGroup>();
  /** Races suppressed by the i-th suppression (`--suppressions`). */
  readonly suppressed: number[] = [];
  /** The suppression of each pair of source locations, as decided by its first race. */
  private readonly suppressionOfPair = new Map<string, number>();
  private lastEvent = -1;

  constructor(private readonly suppressionOf?: SuppressionOf) {}

  race(r: Race): void {
    const a = r.current.loc;
    const b = r.previous.loc;
    const key = a === 0 && b === 0 ? `v${r.variable}` : a < b ? `${a}:${b}` : `${b}:${a}`;
    if (this.suppressionOf !== undefined && this.isSuppressed(key, r)) return;
    if (r.current.index !== this.lastEvent) {
      this.lastEvent = r.current.index;
      this.racyEvents++;
      this.racyLocations.add(r.current.loc);
    }
    if (!this.firstRace.has(r.variable)) this.firstRace.set(r.variable, r.current.index);
    const g = this.groups.get(key);
    if (g === undefined) this.groups.set(key, { race: r, count: 1 });
    else g.count++;
  }

  /** Is race `r` of the location pair `key` suppressed? Counts it if so. */
  private isSuppressed(key: string, r: Race): boolean {
    let i = this.suppressionOfPair.get(key);
    if (i === undefined) {
      i = (this.suppressionOf as SuppressionOf)(r);
      this.suppressionOfPair.set(key, i);
    }
    if (i < 0) return false;
    this.suppressed[i] = (this.suppressed[i] ?? 0) + 1;
    return true;
  }
}
