/**
 * The evidence of `goldilocks run --html FILE --record TRACE` (issue 25 §2): the page of a live run shows the same
 * picture as `goldilocks check --html` — the threads' timelines between the two accesses and how the variable's
 * lockset evolved (`./history.ts`) — taken from the run's recording. The runtime keeps no history of its
 * synchronization events (its list is collected as the program runs); the recording has them all, in the order the
 * runtime appended them, with the accesses under the variable names of the live report (`sab#<buffer>+<offset>`,
 * `n/` for the n-th process, docs/RUNTIME.md). So the recorded trace is checked again offline by goldilocks with a
 * {@link SyncHistory} beside it, and each live race is shown with the evidence of the recorded race of the same
 * variable and pair of source locations (else of the same pair of locations: the first race of a pair may fall on
 * another byte of the buffer offline).
 *
 * Memory and time: those of `goldilocks check --html` on the recording (16 bytes per synchronization event).
 */
import { checkFile } from '../../check.js';
import type { JsonRace } from '../json.js';
import { jsonReport } from '../report.js';
import { type Evidence, SyncHistory } from './history.js';

/** A race's pair of source locations, current first. */
const pairOf = (r: JsonRace): string => `${r.current.location}\n${r.previous.location}`;

/** A live race as its recording shows it: with the trace's event indexes of both accesses, and its evidence. */
export interface Recorded {
  race: JsonRace;
  evidence: Evidence;
}

/**
 * Checks the recorded trace `trace` and returns, for a live race, the race with the recording's event indexes of
 * its accesses and its evidence (undefined for a race the recording does not show: its pair of locations raced
 * only in the live run's order).
 * @throws the trace reader's errors (a recording goldilocks wrote reads without any).
 */
export async function recordedEvidence(trace: string): Promise<(race: JsonRace) => Recorded | undefined> {
  const history = new SyncHistory();
  const result = await checkFile(trace, { detectors: ['goldilocks'], observers: [history], lenient: true });
  const races = jsonReport(result, result.results[0], trace, Number.MAX_SAFE_INTEGER).races;
  const exact = new Map<string, JsonRace>();
  const pairs = new Map<string, JsonRace>();
  for (const r of races) {
    exact.set(`${r.variable}\n${pairOf(r)}`, r);
    if (!pairs.has(pairOf(r))) pairs.set(pairOf(r), r);
  }
  return (race) => {
    const recorded = exact.get(`${race.variable}\n${pairOf(race)}`) ?? pairs.get(pairOf(race));
    if (recorded === undefined) return undefined;
    return {
      race: {
        ...race,
        current: { ...race.current, index: recorded.current.index },
        previous: { ...race.previous, index: recorded.previous.index },
      },
      evidence: history.evidence(recorded, result.symbols),
    };
  };
}
