/**
 * The same-epoch filter's representation (FastTrack PLDI'09 §3: an access this thread already checked in its current
 * epoch needs no check; `./views.ts`, `./spans.ts`, `./cover.ts` read and write it only through these functions). Per
 * buffer a thread accessed: `filter`, one Uint16 per 8-byte word, the word's bytes read (bits 0–7) and written (bits
 * 8–15) after a check; `epochs`, one Uint16 per block of {@link FILTER_BLOCK} words, the thread's epoch (1–0xffff) the
 * block's entries belong to. An entry counts only when its block's epoch is the thread's current one: a new epoch
 * voids every entry without a write, a block's entries are cleared when the block is first written in an epoch, and
 * an epoch wrap clears only `epochs`. 0.28 bytes per shared byte and thread (one Uint32 per word before: 0.5), of
 * which the system commits the pages the thread writes (`./filter-census.ts`).
 */

/** Words of a filter block, which share one epoch (a 64-byte page of the word table, `./shadow/goldilocks.ts`). */
export const FILTER_BLOCK = 8;
const BLOCK_SHIFT = 3;

/** A thread's same-epoch filter of one buffer (see the file header). */
export interface EpochFilter {
  filter: Uint16Array;
  epochs: Uint16Array;
}

/** The filter of a buffer of `words` 8-byte words, nothing filtered. */
export function newFilter(words: number): EpochFilter {
  const blocks = Math.ceil(words / FILTER_BLOCK);
  return { filter: new Uint16Array(blocks * FILTER_BLOCK), epochs: new Uint16Array(blocks) };
}

/** Bytes a filter takes (both arrays). */
export const filterSize = (f: EpochFilter): number => f.filter.byteLength + f.epochs.byteLength;

/** The bytes of word `w` read (bits 0–7) and written (bits 8–15) in `epoch`: 0 when its block is of another epoch. */
export const filterBits = (f: EpochFilter, w: number, epoch: number): number =>
  f.epochs[w >>> BLOCK_SHIFT] === epoch ? f.filter[w] : 0;

/**
 * The first word in [w, to) whose block is of `epoch` (`to` when none): the words before it have no entry in `epoch`
 * ({@link filterBits} 0), skipped a block at a time (a range check's scan, `./spans.ts`).
 */
export function filterNextBlock(f: EpochFilter, w: number, to: number, epoch: number): number {
  const epochs = f.epochs;
  let b = w >>> BLOCK_SHIFT;
  if (epochs[b] === epoch) return w;
  const last = (to - 1) >>> BLOCK_SHIFT;
  do b++;
  while (b <= last && epochs[b] !== epoch);
  return Math.min(to, b << BLOCK_SHIFT);
}

/** Adds `bits` (read bits 0–7, write bits 8–15) to word `w`'s entry in `epoch`, voiding its block's older entries. */
export function filterAdd(f: EpochFilter, w: number, epoch: number, bits: number): void {
  const b = w >>> BLOCK_SHIFT;
  if (f.epochs[b] !== epoch) {
    f.epochs[b] = epoch;
    const filter = f.filter;
    for (let x = b << BLOCK_SHIFT, end = x + FILTER_BLOCK; x < end; x++) filter[x] = 0; // no builtin call
  }
  f.filter[w] |= bits;
}

/**
 * {@link filterAdd} of `bits` to each of the words [from, to): consecutive blocks of another epoch that the run covers
 * whole are written at once (two fills: a range check's run of writes).
 */
export function filterAddRun(f: EpochFilter, from: number, to: number, epoch: number, bits: number): void {
  const { filter, epochs } = f;
  const whole = to >>> BLOCK_SHIFT; // the blocks before it end inside the run
  let w = from;
  while (w < to) {
    let b = w >>> BLOCK_SHIFT;
    const start = b << BLOCK_SHIFT;
    if (epochs[b] !== epoch) {
      if (w === start && b < whole) {
        while (b < whole && epochs[b] !== epoch) b++;
        epochs.fill(epoch, start >>> BLOCK_SHIFT, b);
        filter.fill(bits, start, b << BLOCK_SHIFT);
        w = b << BLOCK_SHIFT;
        continue;
      }
      epochs[b] = epoch;
      filter.fill(0, start, start + FILTER_BLOCK);
    }
    const stop = Math.min(to, start + FILTER_BLOCK);
    for (; w < stop; w++) filter[w] |= bits;
  }
}

/** Voids every entry of `f` (an epoch wrap: epochs restart at 1). */
export const filterClear = (f: EpochFilter): void => {
  f.epochs.fill(0);
};
