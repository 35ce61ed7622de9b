/**
 * A census of the shadow heap (`../memory/state.ts`), for the report's `stats` (`../races.ts`): where the shadow
 * state's bytes go, so that memory can be stated per shared byte apart from the runtime's fixed part (issue 24 §1).
 * It reads every word table page of every registered buffer and follows its lists of `Info` records
 * (`./goldilocks.ts`), without the page locks: called when the report is written, normally after every worker has
 * exited; while threads still run (a report written on abort) the counts are a snapshot that may be off by the
 * records being linked or unlinked meanwhile, never an error (indices past the heap are not followed).
 */
import { CTL, rawAtomics, type StateViews } from '../memory/state.js';
import { Info } from './goldilocks.js';
import { Pair } from './records.js';
import {
  isPending,
  isRecordMark,
  MARK,
  PAGE_INTS,
  PAIRED,
  SHARED_SLOT,
  tablePages,
  UNIFORM,
} from './table.js';

/** What the shadow heap holds, in bytes and counts. */
export interface ShadowCensus {
  /** Bytes of the heap allocated so far (its high-water mark: freed records stay in the pools). */
  heapBytes: number;
  /**
   * Bytes of the word tables (`./table.ts`): a page slot per 64-byte page, and the heads and positions records of
   * the pages split (one each) or patterned (one per distinct record: pages with equal positions share it), and the
   * two records of each pending page (`./pending.ts`).
   */
  tableBytes: number;
  /** Bytes of the Info records linked from a word table (each `Info.SIZE` Int32), shared lists' headers included. */
  infoBytes: number;
  /**
   * Of `infoBytes`, by kind of list: those of the shared lists (headers included, each list once) and those of the
   * pages that are split (a list per word); the rest are the uniform and patterned pages' own lists (a paired page's pair header and lists count as shared).
   */
  sharedInfoBytes: number;
  splitInfoBytes: number;
  /**
   * Word table pages, those of them kept uniform (one list standing for the page's 8 words), and those of these whose
   * list is shared with other pages (`Shadow.shareList`; a shared list's records and header are counted once).
   */
  pages: number;
  uniformPages: number;
  sharedPages: number;
  /** Word table pages kept patterned (one list, a position per word: `Pages.pattern` of `./pages.ts`). */
  patternPages: number;
  /** Word table pages kept paired (a list for the even words, one for the odd: `Pages.pair` of `./pages.ts`). */
  pairedPages: number;
}

/** Takes the census of `s`'s shadow heap (see the file header). */
export function shadowCensus(s: StateViews): ShadowCensus {
  s.refresh();
  const heap = s.heap;
  const top = rawAtomics.load(s.ctl, CTL.heapTop);
  const census: ShadowCensus = {
    heapBytes: top * 4,
    tableBytes: 0,
    infoBytes: 0,
    sharedInfoBytes: 0,
    splitInfoBytes: 0,
    pages: 0,
    uniformPages: 0,
    sharedPages: 0,
    patternPages: 0,
    pairedPages: 0,
  };
  const buffers = rawAtomics.load(s.ctl, CTL.nextBuffer);
  let shared = 0; // Infos of the shared lists, headers included
  let split = 0; // Infos of the pages that are not uniform
  let own = 0; // Infos of the uniform pages' own lists
  const headers = new Set<number>(); // the headers of the shared lists counted
  const positions = new Set<number>(); // the positions records counted (shared by patterned pages)
  for (let id = 1; id <= buffers && 3 * id + 2 < s.buffers.length; id++) {
    if (rawAtomics.load(s.buffers, 3 * id + 2) === 0) continue; // not registered yet
    const [first, last] = tablePages(s.buffers[3 * id], s.buffers[3 * id + 1]);
    const end = Math.min(top, last);
    census.tableBytes += (end - first) * 4;
    for (let page = first; page < end; page += PAGE_INTS) {
      census.pages++;
      const mark = heap[page + MARK];
      if (mark > 0) census.tableBytes += Info.SIZE * 4; // its heads record
      // pending (`PendingPages.pendingState` of `./pending.ts`): its list stands for its words as a uniform page's
      const pending = isRecordMark(mark) && Info.SIZE - mark <= top && isPending(heap, mark);
      if (mark === PAIRED) {
        // its pair header (`Pages.pair` of `./pages.ts`) and two lists, counted once as a shared list's
        census.pairedPages++;
        const h = heap[page + SHARED_SLOT];
        if (h === 0 || h + Info.SIZE > top || headers.has(h)) continue;
        headers.add(h);
        shared += 1 + listLength(heap, heap[h + Pair.EVEN], top) + listLength(heap, heap[h + Pair.ODD], top);
        continue;
      }
      if (pending)
        census.tableBytes += 2 * Info.SIZE * 4; // its pending record, its sites' record
      else if (isRecordMark(mark)) {
        census.patternPages++;
        if (!positions.has(mark)) census.tableBytes += Info.SIZE * 4; // its positions record, counted once
        positions.add(mark);
        own += listLength(heap, heap[page + 1], top);
        continue;
      }
      const uniform = mark === UNIFORM;
      if (uniform) census.uniformPages++;
      const h = heap[page + SHARED_SLOT];
      if (h !== 0) {
        census.sharedPages++;
        if (headers.has(h)) continue; // counted once
        headers.add(h);
        shared += 1 + listLength(heap, heap[page + 1], top);
      } else if (uniform || pending) own += listLength(heap, heap[page + 1], top);
      else {
        split += listLength(heap, heap[page + 1], top);
        if (mark > 0 && mark + Info.SIZE <= top)
          for (let k = 1; k < 8; k++) split += listLength(heap, heap[mark + k], top);
      }
    }
  }
  const bytes = Info.SIZE * 4;
  census.sharedInfoBytes = shared * bytes;
  census.splitInfoBytes = split * bytes;
  census.infoBytes = (shared + split + own) * bytes;
  return census;
}

/** The Infos of the list from Info `e` (indices past the heap's top not followed). */
function listLength(heap: Int32Array, e: number, top: number): number {
  let n = 0;
  for (; e > 0 && e + Info.SIZE <= top && n < top; e = heap[e + Info.NEXT]) n++;
  return n;
}
