/**
 * The resident part of a thread's same-epoch filters (`./filter.ts`; FastTrack PLDI'09 §3), for the report's `stats`
 * (issue 24 §1: shadow memory stated honestly per shared byte). A filter's arrays are allocated zeroed for its
 * buffer's whole capacity; the system commits only the pages of them the thread wrote (a page only read maps the
 * zero page), so what a filter costs in RSS is its pages holding a nonzero entry: every entry a thread writes into a
 * block is followed by a nonzero one (an epoch ≥ 1, a mask of at least one byte), except the wholesale clear of the
 * block epochs at an epoch wrap, after which the whole `epochs` array is counted, and the write bits, which a block
 * of a new epoch clears where they were set and which stay 0 where only reads were filtered: a page of `writes` is
 * counted when a block of it has an epoch (an upper bound: it may never have been written), all of them after a wrap.
 */
import type { EpochFilter } from './filter.js';

/** Bytes of a system page (Linux x86-64 and arm64 base pages), the unit the system commits memory in. */
export const SYSTEM_PAGE_BYTES = 4096;

/**
 * The bytes of `a` in its system pages holding a nonzero entry, or of the pages of `a` holding an entry of a block
 * whose entry in `blocks` is nonzero, `per` entries of `a` per block (`blocks` undefined: its own entries). Counts
 * whole pages from the array's start, so an array whose backing store does not start on a page boundary may be off
 * by the partial pages at its ends.
 */
function writtenBytes(a: Uint8Array | Uint16Array | Int32Array, blocks?: Uint16Array, per = 1): number {
  const perPage = SYSTEM_PAGE_BYTES / a.BYTES_PER_ELEMENT;
  const of = blocks ?? a;
  let bytes = 0;
  for (let p = 0; p < a.length; p += perPage) {
    const end = Math.min(a.length, p + perPage);
    for (let x = Math.floor(p / per), last = Math.ceil(end / per); x < last; x++)
      if (of[x] !== 0) {
        bytes += (end - p) * a.BYTES_PER_ELEMENT;
        break;
      }
  }
  return bytes;
}

/**
 * The bytes of filter `f` resident in memory: its system pages holding a nonzero entry, and all of `epochs` (and of
 * `writes`) when it was cleared wholesale (`cleared`; see the file header). O(entries) reads, at a thread's exit.
 */
export function residentFilterBytes(f: EpochFilter, cleared: boolean): number {
  if (cleared) return writtenBytes(f.filter) + f.writes.byteLength + f.epochs.byteLength;
  return writtenBytes(f.filter) + writtenBytes(f.writes, f.epochs) + writtenBytes(f.epochs);
}
