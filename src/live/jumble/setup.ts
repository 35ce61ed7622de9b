/**
 * The settings of a jumbled run (`goldilocks run --jumble`, docs/JUMBLE.md "Live"), read by every thread of its
 * processes: `GOLDILOCKS_JUMBLE` the heuristic (`sc`, `oldest`, `obd`, `random`, `rbd`: PLDI'10 §5.1),
 * `GOLDILOCKS_JUMBLE_SEED` the base seed of the per-thread random choices (default 0), `GOLDILOCKS_JUMBLE_FAIRNESS`
 * the fairness bound K (default 16; `off`), `GOLDILOCKS_JUMBLE_LOCATIONS` a file naming the jumbled locations
 * (default: every element location). At exit the main thread writes the counters (`./memory.ts` JUMBLE_STATS) to
 * `<GOLDILOCKS_REPORT_DIR>/<pid>.jumble`, which `goldilocks run` sums and prints. The locations file: `./locations.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Adversary, HEURISTICS, type HeuristicName } from '../../jumble/heuristics.js';
import { settings } from '../../node/settings.js';
import type { StateViews } from '../memory/state.js';
import { FastTrackShadow } from '../shadow/fasttrack.js';
import type { Shadow } from '../shadow/goldilocks.js';
import { parseFairness, parseLocations } from './locations.js';
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
  const file = settings.GOLDILOCKS_JUMBLE_LOCATIONS;
  const locations = file ? parseLocations(readFileSync(file, 'utf8')) : undefined;
  const selects =
    locations === undefined
      ? () => true
      : (buffer: SharedArrayBuffer, off: number, size: number): boolean => {
          const offsets = locations.get(idOf(buffer));
          if (offsets === undefined) return false;
          for (const o of offsets) if (o >= off && o < off + size) return true;
          return false;
        };
  return new JumbleMemory(s, t, adversary, () => shadow.clockRecord, selects);
}

/** Main thread, at exit: writes the counters of a jumbled run to the run's report directory, if any. */
export function writeJumbleStats(memory: JumbleMemory): void {
  const dir = settings.GOLDILOCKS_REPORT_DIR;
  if (!dir) return;
  const stats = {
    heuristic: settings.GOLDILOCKS_JUMBLE,
    seed: Number(settings.GOLDILOCKS_JUMBLE_SEED ?? 0),
    ...memory.stats(),
  };
  writeFileSync(path.join(dir, `${process.pid}.jumble`), JSON.stringify(stats));
}
