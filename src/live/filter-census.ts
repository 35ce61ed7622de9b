/**
 * The resident part of a thread's same-epoch filters (`./views.ts`; FastTrack PLDI'09 §3), for the report's `stats`
 * (issue 24 §1: shadow memory stated honestly per shared byte). A filter is a `Uint32Array` of one entry per 8-byte
 * word of its buffer, allocated zeroed for the buffer's whole capacity; the system commits only the pages of it that
 * the thread wrote (a page only read maps the zero page), so what a filter costs in RSS is its pages holding a
 * nonzero entry: every entry a thread writes is nonzero (epoch ≥ 1 in bits 16–31), except the wholesale clears of
 * an epoch wrap, after which the whole filter is counted.
 */

/** Bytes of a system page (Linux x86-64 and arm64 base pages), the unit the system commits memory in. */
export const SYSTEM_PAGE_BYTES = 4096;
const PAGE_ENTRIES = SYSTEM_PAGE_BYTES / Uint32Array.BYTES_PER_ELEMENT;

/**
 * The bytes of `filter` resident in memory: its system pages holding a nonzero entry, or all its bytes when it was
 * cleared wholesale (`cleared`). O(entries) reads, at a thread's exit. Counts whole pages, so a filter whose
 * backing store does not start on a page boundary may be off by the two partial pages at its ends.
 */
export function residentFilterBytes(filter: Uint32Array, cleared: boolean): number {
  if (cleared) return filter.byteLength;
  let bytes = 0;
  for (let p = 0; p < filter.length; p += PAGE_ENTRIES) {
    const end = Math.min(filter.length, p + PAGE_ENTRIES);
    for (let x = p; x < end; x++)
      if (filter[x] !== 0) {
        bytes += (end - p) * Uint32Array.BYTES_PER_ELEMENT;
        break;
      }
  }
  return bytes;
}
