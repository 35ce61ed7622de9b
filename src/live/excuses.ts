/**
 * Races the live runtime counts but neither reports nor throws for (issue 25 §2): races on bytes annotated benign
 * (goldilocks/annotations `benignRace`, ThreadSanitizer's `ANNOTATE_BENIGN_RACE_SIZED`) and races suppressed by
 * `--suppressions` (`GOLDILOCKS_SUPPRESSIONS`, ../report/suppressions.ts). Both are decided on the race path only
 * (`./runtime.ts`): the access check itself does not change.
 *
 * The benign ranges are shared by every thread of the process: a chain of records in the shadow heap,
 * [next, buffer id, first byte, end byte, reason's string id], its head at `CTL.benign`, pushed by
 * compare-exchange (a record is filled before it is linked; records are never removed).
 */
import { loadSuppressions, type Suppression, SuppressionError } from '../report/suppressions.js';
import { allocHeap, CTL, rawAtomics, type StateViews } from './memory/state.js';
import { getString, putString } from './memory/strings.js';

/** Why a race is not reported: the i-th suppression of the suppressions file, or the bytes' benign reason. */
export type Excuse = { suppression: number } | { benign: string };

/** Int32 words of a benign-range record. */
const BENIGN = 5;

/**
 * Records bytes [lo, hi) of buffer `id` as racing benignly for `reason` (goldilocks/annotations `benignRace`), for
 * every thread of the process.
 */
export function addBenign(s: StateViews, id: number, lo: number, hi: number, reason: string): void {
  const r = allocHeap(s, BENIGN);
  const heap = s.heap;
  heap[r + 1] = id;
  heap[r + 2] = lo;
  heap[r + 3] = hi;
  heap[r + 4] = putString(s, reason);
  for (;;) {
    const head = rawAtomics.load(s.ctl, CTL.benign);
    heap[r] = head;
    if (rawAtomics.compareExchange(s.ctl, CTL.benign, head, r) === head) return;
  }
}

/** The benign ranges of the process as [buffer id, first byte, end byte] (newest first), for a recording. */
export function benignRanges(s: StateViews): [number, number, number][] {
  const out: [number, number, number][] = [];
  s.refresh();
  for (let r = rawAtomics.load(s.ctl, CTL.benign); r !== 0; r = s.heap[r])
    out.push([s.heap[r + 1], s.heap[r + 2], s.heap[r + 3]]);
  return out;
}

/** The reason of the newest benign range holding byte `off` of buffer `id`, or undefined. */
export function benignReason(s: StateViews, id: number, off: number): string | undefined {
  let r = rawAtomics.load(s.ctl, CTL.benign); // synchronizes with the push that linked it
  if (r !== 0 && r + BENIGN > s.heap.length) s.refresh();
  for (; r !== 0; r = s.heap[r]) {
    if (s.heap[r + 1] === id && s.heap[r + 2] <= off && off < s.heap[r + 3])
      return getString(s, s.heap[r + 4]);
  }
  return undefined;
}

/** This thread's suppressions, read once from `file`; none, after one warning, when it cannot be read. */
let loaded: { file: string; suppressions: Suppression[] } | undefined;

/**
 * The suppressions of the file `file` (`GOLDILOCKS_SUPPRESSIONS`; `goldilocks run` checked it before the run).
 * @param warn prints a warning (once per thread) when the file cannot be read or has a bad line.
 */
export function liveSuppressions(file: string | undefined, warn: (text: string) => void): Suppression[] {
  if (!file) return [];
  if (loaded?.file === file) return loaded.suppressions;
  let suppressions: Suppression[] = [];
  try {
    suppressions = loadSuppressions(file);
  } catch (e) {
    const why = e instanceof SuppressionError ? e.message : String(e);
    warn(`goldilocks: GOLDILOCKS_SUPPRESSIONS: ${why}; no race is suppressed\n`);
  }
  loaded = { file, suppressions };
  return suppressions;
}
