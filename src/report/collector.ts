import type { Race, RaceSink } from '../detectors/detector.js';

/** A deduplicated race: the first race seen for a pair of source locations, and how often the pair raced. */
export interface RaceGroup {
  race: Race;
  count: number;
}

/**
 * Collects the races a detector declares: racy events (events at which at least one race is declared,
 * counted once each, like RAPID's "racy events"), racy variables (in order of first race, with the event
 * index of that first race), racy source locations (locations of racy events, like RAPID's "racy lines"),
 * and races deduplicated by the unordered pair of source locations (by variable when neither access has a
 * location), keeping the first race of each pair and a count.
 */
export class RaceCollector implements RaceSink {
  racyEvents = 0;
  /** Variable id -> index of the first event at which a race on it was declared. */
  readonly firstRace = new Map<number, number>();
  readonly racyLocations = new Set<number>();
  readonly groups = new Map<string, RaceGroup>();
  private lastEvent = -1;

  race(r: Race): void {
    if (r.current.index !== this.lastEvent) {
      this.lastEvent = r.current.index;
      this.racyEvents++;
      this.racyLocations.add(r.current.loc);
    }
    if (!this.firstRace.has(r.variable)) this.firstRace.set(r.variable, r.current.index);
    const a = r.current.loc;
    const b = r.previous.loc;
    const key = a === 0 && b === 0 ? `v${r.variable}` : a < b ? `${a}:${b}` : `${b}:${a}`;
    const g = this.groups.get(key);
    if (g === undefined) this.groups.set(key, { race: r, count: 1 });
    else g.count++;
  }
}
