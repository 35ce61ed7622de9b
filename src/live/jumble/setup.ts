/**
 * The settings of a jumbled run (`goldilocks run --jumble`, docs/JUMBLE.md "Live"), read by every thread of its
 * processes: `GOLDILOCKS_JUMBLE` the heuristic (`sc`, `oldest`, `obd`, `random`, `rbd`: PLDI'10 §5.1),
 * `GOLDILOCKS_JUMBLE_SEED` the base seed of the per-thread random choices (default 0), `GOLDILOCKS_JUMBLE_FAIRNESS`
 * the fairness bound K (default 16; `off`), `GOLDILOCKS_JUMBLE_LOCATIONS` the text of a locations file naming the
 * jumbled locations (default: every element location; by buffer id or by allocation site: `./locations.ts`), `GOLDILOCKS_JUMBLE_LOG`
 * a directory for the run's log (its jumbled reads and counters, `./log.ts`; `goldilocks jumble` sets it) and
 * `GOLDILOCKS_JUMBLE_LOG_READS` the reads logged per thread (default 256). At exit the main thread writes the
 * counters (`./records.ts` JUMBLE_STATS) to `<GOLDILOCKS_REPORT_DIR>/<pid>.jumble`, which `goldilocks run` sums and
 * prints, and to the log.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Adversary, HEURISTICS, type HeuristicName } from '../../jumble/heuristics.js';
import { settings } from '../../node/settings.js';
import type { StateViews } from '../memory/state.js';
import { FastTrackShadow } from '../shadow/fasttrack.js';
import type { Shadow } from '../shadow/goldilocks.js';
import { parseFairness, parseLocations, selectionOf } from './locations.js';
import { DEFAULT_LOG_READS, ReadLog, writeStats } from './log.js';
import { JumbleMemory } from './memory.js';

/**
 * This thread's adversarial memory when the run is jumbled, else undefined.
 * @throws Error when the detector is not FastTrack (whose vector clocks it needs), or the settings are wrong.
 */
export function jumbleMemory(
  s: StateViews,
  t: number,
  shadow: Shadow,
  idOf: (buffer: SharedArrayBuffer) => number,
  allocationSite: (id: number) => string,
): JumbleMemory | undefined {
  const heuristic = settings.GOLDILOCKS_JUMBLE;
  if (!heuristic) return undefined;
  if (!HEURISTICS.includes(heuristic as HeuristicName))
    throw new Error(`goldilocks: GOLDILOCKS_JUMBLE='${heuristic}' is not one of ${HEURISTICS.join(', ')}`);
  if (!(shadow instanceof FastTrackShadow))
    throw new Error('goldilocks: --jumble needs the vector clocks of --detector fasttrack');
  const adversary = new Adversary({
    heuristic: heuristic as HeuristicName,
    seed: Number(settings.GOLDILOCKS_JUMBLE_SEED ?? 0),
    fairness: parseFairness(settings.GOLDILOCKS_JUMBLE_FAIRNESS),
  });
  const text = settings.GOLDILOCKS_JUMBLE_LOCATIONS;
  const locations = text !== undefined ? parseLocations(text) : undefined;
  /** Per buffer id, its selection (pairs offset, size; size 0 for any): `./locations.ts` selectionOf. */
  const selections: number[][] = [];
  const pairsOf =
    locations === undefined
      ? undefined
      : (buffer: SharedArrayBuffer): number[] => {
          const id = idOf(buffer);
          let pairs = selections[id];
          if (pairs === undefined) {
            pairs = selectionOf(locations, id, allocationSite(id));
            selections[id] = pairs;
          }
          return pairs;
        };
  const selects =
    pairsOf === undefined
      ? () => true
      : (buffer: SharedArrayBuffer, off: number, size: number): boolean => {
          const pairs = pairsOf(buffer);
          for (let k = 0; k < pairs.length; k += 2) {
            const o = pairs[k];
            if (o >= off && o < off + size && (pairs[k + 1] === 0 || pairs[k + 1] === size)) return true;
          }
          return false;
        };
  const dir = settings.GOLDILOCKS_JUMBLE_LOG;
  const limit = Number(settings.GOLDILOCKS_JUMBLE_LOG_READS ?? DEFAULT_LOG_READS);
  const log = dir ? new ReadLog(dir, t, limit) : undefined;
  return new JumbleMemory(
    s,
    t,
    adversary,
    () => shadow.clockRecord,
    selects,
    pairsOf,
    (out) => shadow.threadClocks(out),
    log,
  );
}

/** Main thread, at exit: writes the counters of a jumbled run to the run's report directory and log, if any. */
export function writeJumbleStats(memory: JumbleMemory): void {
  memory.flush();
  const stats = {
    heuristic: settings.GOLDILOCKS_JUMBLE,
    seed: Number(settings.GOLDILOCKS_JUMBLE_SEED ?? 0),
    ...memory.stats(),
  };
  const dir = settings.GOLDILOCKS_REPORT_DIR;
  if (dir) writeFileSync(path.join(dir, `${process.pid}.jumble`), JSON.stringify(stats));
  const log = settings.GOLDILOCKS_JUMBLE_LOG;
  if (log) writeStats(log, stats);
}
