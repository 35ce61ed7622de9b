/**
 * The same-epoch filter's representation (FastTrack PLDI'09 §3: an access this thread already checked in its current
 * epoch needs no check; `./views.ts`, `./spans.ts`, `./cover.ts` read and write it only through these functions). Per
 * buffer a thread accessed: `filter`, one Uint8 per 8-byte word, the word's bytes read or written after a check (a
 * read of them needs no check); `writes`, one Int32 per block of {@link FILTER_BLOCK} words, two bits per word: its
 * low and its high 4 bytes written, each by one access (a write of them needs no check); `epochs`, one Uint16 per
 * block, the thread's epoch (1–0xffff) the block's entries belong to. An entry counts only when its block's epoch is
 * the thread's current one: a new epoch voids every entry without a write, a block's entries are cleared when the
 * block is first written in an epoch, and an epoch wrap clears only `epochs`. Exact (an entry says "checked in this
 * epoch" only for bytes that were), coarser for writes than for reads: a write of 1 or 2 bytes (an Int8 or Int16
 * element) sets no write bit, so the next write of them is checked again. 0.17 bytes per shared byte and thread
 * (one Uint16 per word before, its bytes read and its bytes written: 0.28; issue 24 §1 memory), of which the
 * system commits the pages the thread writes (`./filter-census.ts`).
 */

/**
 * `%TypedArray%.prototype.fill` as it was when this module was loaded, before the runtime patched it
 * (`./intercept/`): the filter's arrays are this thread's own, and the patched method's shared-memory test and
 * spread call cost a range check's record more than the fills (CPU profile of lufact at 4 workers: ~2% of a
 * worker's time), as `rawAtomics` (`./memory/state.ts`) keeps Atomics'.
 */
const fill = Object.getPrototypeOf(Int8Array.prototype).fill as (
  this: Uint8Array | Uint16Array | Int32Array,
  value: number,
  start?: number,
  end?: number,
) => unknown;

/** Words of a filter block, which share one epoch and one Int32 of write bits. */
export const FILTER_BLOCK = 16;
const BLOCK_SHIFT = 4;

/** A thread's same-epoch filter of one buffer (see the file header). */
export interface EpochFilter {
  filter: Uint8Array;
  /** `filter`'s bytes, four entries per Int32 (the same memory): a block's entries cleared in 4 stores. */
  filter32: Int32Array;
  writes: Int32Array;
  epochs: Uint16Array;
}

/** The filter of a buffer of `words` 8-byte words, nothing filtered. */
export function newFilter(words: number): EpochFilter {
  const blocks = Math.ceil(words / FILTER_BLOCK);
  const filter = new Uint8Array(blocks * FILTER_BLOCK);
  return {
    filter,
    filter32: new Int32Array(filter.buffer),
    writes: new Int32Array(blocks),
    epochs: new Uint16Array(blocks),
  };
}

/** Bytes a filter takes (its three arrays). */
export const filterSize = (f: EpochFilter): number =>
  f.filter.byteLength + f.writes.byteLength + f.epochs.byteLength;

/**
 * The bytes of word `w` checked in `epoch`: read or written (bits 0–7; a read of them needs no check) and written
 * (bits 8–15, by halves of the word; a write of them needs no check). 0 when its block is of another epoch.
 */
export function filterBits(f: EpochFilter, w: number, epoch: number): number {
  const b = w >>> BLOCK_SHIFT;
  if (f.epochs[b] !== epoch) return 0;
  const h = f.writes[b] >>> ((w & (FILTER_BLOCK - 1)) << 1);
  return f.filter[w] | ((h & 1) * 0x0f00) | ((h & 2) * 0x7800);
}

/**
 * Whether the bytes `mask` of word `w` were checked in `epoch` for an access of kind `write` (0: a read, covered by
 * bytes read or written; else a write, covered by halves written): {@link filterBits}'s test, reading the write bits
 * only for a write (the element hook's test, `./views.ts`).
 */
export function filterCovers(f: EpochFilter, w: number, epoch: number, mask: number, write: number): boolean {
  const b = w >>> BLOCK_SHIFT;
  if (f.epochs[b] !== epoch) return false;
  if (write === 0) return (f.filter[w] & mask) === mask;
  const h = f.writes[b] >>> ((w & (FILTER_BLOCK - 1)) << 1);
  return ((((h & 1) * 0x0f) | ((h & 2) * 0x78)) & mask) === mask;
}

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

/**
 * The end of word `w`'s block when none of its entries in `epoch` covers an access of kind `write` (1: a write) — its
 * block is of another epoch, or, for a write, has no write bit —, else `w`: the words before it need no
 * {@link filterCovers} (a range check's scan of a lane, `./spans.ts`).
 */
export function filterBlockVoid(f: EpochFilter, w: number, epoch: number, write: number): number {
  const b = w >>> BLOCK_SHIFT;
  return f.epochs[b] !== epoch || (write !== 0 && f.writes[b] === 0) ? (b + 1) << BLOCK_SHIFT : w;
}

/** The two write bits of a word (its low, its high 4 bytes) that written-byte mask `m` covers whole. */
const halves = (m: number): number => ((m & 0x0f) === 0x0f ? 1 : 0) | ((m & 0xf0) === 0xf0 ? 2 : 0);

/** Block `b` of `f` starts over in `epoch`: its entries and write bits cleared (a zero page not written to). */
function resetBlock(f: EpochFilter, b: number, epoch: number): void {
  f.epochs[b] = epoch;
  const q = b << (BLOCK_SHIFT - 2); // the block's first Int32 of entries
  const filter32 = f.filter32;
  filter32[q] = 0; // no builtin call
  filter32[q + 1] = 0;
  filter32[q + 2] = 0;
  filter32[q + 3] = 0;
  if (f.writes[b] !== 0) f.writes[b] = 0;
}

/**
 * Adds `bits` (bytes read: bits 0–7, bytes written: bits 8–15) to word `w`'s entry in `epoch`, voiding its block's
 * older entries.
 */
export function filterAdd(f: EpochFilter, w: number, epoch: number, bits: number): void {
  const b = w >>> BLOCK_SHIFT;
  if (f.epochs[b] !== epoch) resetBlock(f, b, epoch);
  const written = bits >>> 8;
  f.filter[w] |= (bits | written) & 0xff;
  const h = halves(written);
  if (h !== 0) f.writes[b] |= h << ((w & (FILTER_BLOCK - 1)) << 1);
}

/**
 * {@link filterAdd} of `bits` to each of the `n` words `from + step·i` (a range check's lane, `./spans.ts`), a block
 * at a time: each block's epoch tested and its write bits stored once, not once per word.
 */
export function filterAddStrided(
  f: EpochFilter,
  from: number,
  n: number,
  step: number,
  epoch: number,
  bits: number,
): void {
  const { filter, writes, epochs } = f;
  const entry = (bits | (bits >>> 8)) & 0xff;
  const h = halves(bits >>> 8);
  const end = from + step * n; // after the lane's last word
  for (let w = from; w < end; ) {
    const b = w >>> BLOCK_SHIFT;
    if (epochs[b] !== epoch) resetBlock(f, b, epoch);
    const stop = Math.min(end, (b + 1) << BLOCK_SHIFT);
    let wb = 0;
    for (; w < stop; w += step) {
      filter[w] |= entry;
      wb |= h << ((w & (FILTER_BLOCK - 1)) << 1);
    }
    if (wb !== 0) writes[b] |= wb;
  }
}

/**
 * {@link filterAdd} of `bits` to each of the words [from, to): consecutive blocks of another epoch that the run covers
 * whole are written at once (two fills: a range check's run of writes).
 */
export function filterAddRun(f: EpochFilter, from: number, to: number, epoch: number, bits: number): void {
  const { filter, writes, epochs } = f;
  const entry = (bits | (bits >>> 8)) & 0xff;
  const h = halves(bits >>> 8);
  const whole = to >>> BLOCK_SHIFT; // the blocks before it end inside the run
  let w = from;
  while (w < to) {
    let b = w >>> BLOCK_SHIFT;
    const start = b << BLOCK_SHIFT;
    if (epochs[b] !== epoch) {
      if (w === start && b < whole) {
        const first = b;
        while (b < whole && epochs[b] !== epoch) b++;
        fill.call(epochs, epoch, first, b);
        fill.call(filter, entry, start, b << BLOCK_SHIFT);
        if (h !== 0) fill.call(writes, h * 0x55555555, first, b);
        else for (let x = first; x < b; x++) if (writes[x] !== 0) writes[x] = 0;
        w = b << BLOCK_SHIFT;
        continue;
      }
      resetBlock(f, b, epoch);
    }
    const stop = Math.min(to, start + FILTER_BLOCK);
    let wb = 0;
    for (; w < stop; w++) {
      filter[w] |= entry;
      wb |= h << ((w & (FILTER_BLOCK - 1)) << 1);
    }
    if (wb !== 0) writes[b] |= wb;
  }
}

/** Voids every entry of `f` (an epoch wrap: epochs restart at 1). */
export const filterClear = (f: EpochFilter): void => {
  fill.call(f.epochs, 0);
};
