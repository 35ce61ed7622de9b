/**
 * The element fast path of a jumbled run that names its locations (`goldilocks run --jumble H --jumble-locations
 * FILE`, what every run of a `goldilocks jumble` campaign is): an element access of a location no write buffer
 * tracks costs what it costs in `goldilocks run` (the same-epoch filter of `../views.ts`, no word lock, no value
 * under the lock), as non-jumbled locations "execute normally" in the paper's Jumble (Flanagan & Freund, PLDI'10
 * §5.1); only the accesses of the named locations take the path under the word lock (`../locked.ts`).
 *
 * Sound for adversarial memory: a write of a location it does not track feeds no buffer (a word check still passes
 * a write of other bytes of a tracked word on as a write of unknown value, `../locked.ts` onAccess); a write it did
 * not see (one the same-epoch filter skipped, of bytes overlapping a tracked location) is caught at the next read by
 * the desynchronization guard (`./memory.ts`), which starts the buffer again from memory.
 */
import type { Runtime, ThreadHooks } from '../../hooks/contract.js';
import type { Recorder } from '../record.js';
import type { JumbleMemory } from './memory.js';

type FastPath = NonNullable<Runtime['r']>;

const NONE: readonly number[] = [];

/**
 * The fast path `fast` (the `r` or `w` of `../views.ts`) for the elements that {@link pairsOf} does not select,
 * and `true` (the site then calls `get` / `set`, which perform jumbled accesses) for those it selects.
 * @param pairsOf the selection of a buffer: pairs (byte offset, size) flat, size 0 for any (`./locations.ts`
 *   selectionOf); an element is selected when one of the offsets is among its bytes and the size matches.
 * @param shared is `o` a TypedArray over shared memory (`ThreadHooks.shared`)?
 */
export function unjumbledFastPath(
  fast: FastPath,
  pairsOf: (buffer: SharedArrayBuffer) => readonly number[],
  shared: (o: unknown) => boolean,
): FastPath {
  const views = new WeakMap<ArrayBufferView, readonly number[]>();
  let lastView: ArrayBufferView | undefined; // a one-entry cache in front of `views`
  let lastPairs = NONE;
  return (o, k, m, i, c) => {
    let pairs = lastPairs;
    if (o !== lastView) {
      let p = views.get(o);
      if (p === undefined) {
        p = shared(o) ? pairsOf(o.buffer as SharedArrayBuffer) : NONE;
        views.set(o, p);
      }
      lastView = o;
      lastPairs = p;
      pairs = p;
    }
    if (pairs.length !== 0 && typeof k === 'number') {
      const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
      const off = o.byteOffset + k * bpe;
      for (let j = 0; j < pairs.length; j += 2) {
        const at = pairs[j];
        if (at >= off && at < off + bpe && (pairs[j + 1] === 0 || pairs[j + 1] === bpe)) return true;
      }
    }
    return fast(o, k, m, i, c);
  };
}

/**
 * The element fast paths of a run whose element accesses are performed under the word lock (`../locked.ts`): none
 * for a recorded run (every access is recorded) or a jumbled run of every location; for a jumbled run that names its
 * locations, the plain fast paths `plain` (`../views.ts`) for the elements it does not jumble.
 */
export function lockedFastPaths(
  plain: Required<Pick<Runtime, 'r' | 'w'>>,
  recorder: Recorder | undefined,
  memory: JumbleMemory | undefined,
  hooks: ThreadHooks,
): Pick<Runtime, 'r' | 'w'> {
  const pairsOf = memory?.pairsOf;
  if (recorder !== undefined || pairsOf === undefined) return { r: undefined, w: undefined };
  return {
    r: unjumbledFastPath(plain.r, pairsOf, hooks.shared),
    w: unjumbledFastPath(plain.w, pairsOf, hooks.shared),
  };
}
