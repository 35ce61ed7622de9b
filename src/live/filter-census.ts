/**
 * The resident part of a thread's same-epoch filters (`./filter.ts`; FastTrack PLDI'09 §3), for the report's `stats`
 * (issue 24 §1: shadow memory stated honestly per shared byte). A filter's two arrays are allocated zeroed for its
 * buffer's whole capacity; the system commits only the pages of them the thread wrote (a page only read maps the
 * zero page), so what a filter costs in RSS is its pages holding a nonzero entry: every entry a thread writes into a
 * block is followed by a nonzero one (an epoch ≥ 1, a mask of at least one byte), except the wholesale clear of the
 * block epochs at an epoch wrap, after which the whole `epochs` array is counted.
 */
import type { EpochFilter } from './filter.js';

/** Bytes of a system page (Linux x86-64 and arm64 base pages), the unit the system commits memory in. */
export const SYSTEM_PAGE_BYTES = 4096;

/**
 * The bytes of `a` in its system pages holding a nonzero entry. Counts whole pages from the array's start, so an
 * array whose backing store does not start on a page boundary may be off by the partial pages at its ends.
 */
function writtenBytes(a: Uint16Array): number {
  const perPage = SYSTEM_PAGE_BYTES / a.BYTES_PER_ELEMENT;
  let bytes = 0;
  for (let p = 0; p < a.length; p += perPage) {
    const end = Math.min(a.length, p + perPage);
    for (let x = p; x < end; x++)
      if (a[x] !== 0) {
        bytes += (end - p) * a.BYTES_PER_ELEMENT;
        break;
      }
  }
  return bytes;
}

/**
 * The bytes of filter `f` resident in memory: its system pages holding a nonzero entry, and all of `epochs` when it
 * was cleared wholesale (`cleared`). O(entries) reads, at a thread's exit.
 */
export const residentFilterBytes = (f: EpochFilter, cleared: boolean): number =>
  writtenBytes(f.filter) + (cleared ? f.epochs.byteLength : writtenBytes(f.epochs));
