/**
 * `goldilocks run --jumble <heuristic>` (issue 22 §3; docs/JUMBLE.md "Live"): the settings a jumbled run passes
 * to its processes (`../live/jumble/setup.ts` reads them), checked before the run, and the summary line of what
 * adversarial memory did, summed over the processes' counters (`<pid>.jumble` in the report directory).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseFairness, parseLocations } from '../live/jumble/locations.js';
import type { RunFlags } from './run.js';
import { readableFile, UsageError } from './usage.js';

/**
 * The `GOLDILOCKS_JUMBLE*` settings of `flags`, or undefined when the run is not jumbled.
 * @throws UsageError for an unreadable or malformed `--jumble-locations` file, a wrong `--jumble-fairness`, or a
 *   `--jumble-*` option without `--jumble`.
 */
export function jumbleSettings(flags: RunFlags): Record<string, string> | undefined {
  if (flags.jumble === undefined) {
    const stray = [
      flags.jumbleSeed !== undefined ? '--jumble-seed' : '',
      flags.jumbleLocations !== undefined ? '--jumble-locations' : '',
      flags.jumbleFairness !== undefined ? '--jumble-fairness' : '',
    ].filter((o) => o !== '');
    if (stray.length > 0)
      throw new UsageError(`${stray[0]}: only with --jumble (expected --jumble <heuristic>)`);
    return undefined;
  }
  const env: Record<string, string> = {
    GOLDILOCKS_JUMBLE: flags.jumble,
    GOLDILOCKS_JUMBLE_SEED: String(flags.jumbleSeed ?? 0),
  };
  if (flags.jumbleFairness !== undefined) {
    try {
      parseFairness(flags.jumbleFairness);
    } catch (e) {
      throw new UsageError(`--jumble-fairness: ${(e as Error).message}`);
    }
    env.GOLDILOCKS_JUMBLE_FAIRNESS = flags.jumbleFairness;
  }
  if (flags.jumbleLocations !== undefined) {
    // read once here: the file may be a pipe (`<(echo …)`, as a witness's rerun command gives it)
    const file = path.resolve(flags.jumbleLocations);
    readableFile(
      file,
      '--jumble-locations',
      'a file of locations sab#B+O or FILE:LINE:COLUMN+O[/S], one a line',
    );
    const text = readFileSync(file, 'utf8');
    try {
      parseLocations(text);
    } catch (e) {
      throw new UsageError(`--jumble-locations: ${flags.jumbleLocations}: ${(e as Error).message}`);
    }
    env.GOLDILOCKS_JUMBLE_LOCATIONS = text;
  }
  return env;
}

/** The counters of the processes of a jumbled run (report directory `dir`), summed (the max… ones: the largest). */
export function jumbleCounters(dir: string): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.jumble'))) {
    const stats = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(stats)) {
      if (typeof v !== 'number' || k === 'seed') continue;
      sum[k] = k.startsWith('max') ? Math.max(sum[k] ?? 0, v) : (sum[k] ?? 0) + v;
    }
  }
  return sum;
}

/** The summary line of a jumbled run (report directory `dir`), for stderr. */
export function jumbleSummary(dir: string): string {
  const c = jumbleCounters(dir);
  const n = (k: string) => (c[k] ?? 0).toLocaleString('en-US');
  return (
    `goldilocks: jumble: ${n('reads')} reads of jumbled locations, ${n('choiceReads')} with a choice, ` +
    `${n('staleReads')} returned an older value (${n('tornReads')} torn), ${n('memoryReads')} read memory ` +
    `(value unknown); ${n('writes')} writes (${n('unknownWrites')} of unknown value) to ${n('buffers')} ` +
    `locations, longest buffer ${n('maxLength')}, [REMOVE OLDEST] ${n('removeOldest')}, resynchronized ${n('desync')}\n`
  );
}
