/**
 * The word table of a shared buffer in the shadow heap (`../memory/state.ts`; issue 24 §1, memory): a *page slot* of
 * {@link PAGE_INTS} Int32 per 64-byte page (8 words of 8 bytes, a cache line of the buffer), 0.25 shadow bytes per
 * shared byte, and, only for a page whose words have lists of their own, a record of the words' heads from the
 * Info pool (`./info-pool.ts`, an Info-sized record).
 *
 * A page slot, 16-byte aligned (so within one cache line: the check reads its lock and a head together):
 * - `LOCK` (0): the page's check lock (`../memory/state.ts` `lock`): one per page, shared by its 8 words;
 * - `HEAD` (1): the head of the page's first word's list of Infos (of a uniform or patterned page: the page's list);
 * - {@link SHARED_SLOT} (2): of a uniform page whose list is shared with other pages, that list's header; of a paired
 *   page, its pair header (`Pair` of `./records.ts`; else 0);
 * - {@link MARK} (3): what the page is — 0: split (a list per word) with words 1–7 empty and no record; a record
 *   `r` > 0: split, the head of word k (1–7) at `r + k` (`r + 0`: the merge's hint, `Pages.merge`); {@link UNIFORM}: the first word's list stands for all 8;
 *   {@link PAIRED}: the two lists of its pair header stand for its even words (0, 2, 4, 6) and its odd words
 *   (`Pages.pair` of `./pages.ts`: a red-black sweep's page, its two colours' histories; `HEAD` unused); `-r` <
 *   {@link PAIRED}: patterned (`Pages.pattern` of `./pages.ts`), the first word's list stands for all 8 but for its last
 *   Info's `pos`, that of word k at `r + k` (plus 1; 0: lost), in a positions record that pages with equal
 *   positions share (its word 0 counts their references); or, when that word 0 is negative, *pending*
 *   (`PendingPages.pendingState` of `./pending.ts`): the page's list stands for the words one thread has not accessed yet in its
 *   current epoch, a pending record `r` (not shared) for those it has ({@link isPending}).
 *
 * **Word addresses.** A word is named by one Int32, `2 × slot + k` for word k of the page at heap index `slot` (a
 * multiple of 4): the page is `(word >> 1) & -4` ({@link lockOf}), the word in it `word & 7`, and the words of a
 * buffer are consecutive numbers from its table's first ({@link allocTable}: buffer word w is `base + w`). A table
 * lies in the first 2^30 Int32 of the heap (4 GiB), so that its addresses are Int32.
 */
import { allocHeap, ShadowLimitError, type StateViews } from '../memory/state.js';
import { Pair } from './records.js';

/** Int32 of a page slot (see the file header). */
export const PAGE_INTS = 4;
/** The slot of a uniform page's shared list header, 0 when the page's list is its own (`Shadow.shareList`). */
export const SHARED_SLOT = 2;
/** The slot of a page's marker or heads record (see the file header). */
export const MARK = 3;
/** {@link MARK} of a uniform page (`Shadow.uniform`). */
export const UNIFORM = -1;
/** {@link MARK} of a paired page (see the file header; `Pages.pair` of `./pages.ts`). */
export const PAIRED = -2;
/**
 * Is a page of {@link MARK} `mark` pending (see the file header)? Its mark is then minus its pending record, whose
 * word 0 is negative (a positions record's counts its references: at least 1).
 */
export const isPending = (heap: Int32Array, mark: number): boolean => mark < PAIRED && heap[-mark] < 0;
/** Is a page of {@link MARK} `mark` patterned or pending (minus a record's index, see the file header)? */
export const isRecordMark = (mark: number): boolean => mark < PAIRED;
/**
 * Is page `page` split (its {@link MARK} 0 or a heads record: a list per word)? Then splitting it does nothing, and,
 * when its first word has a list, it can neither be made uniform nor be pending.
 */
export const isSplit = (heap: Int32Array, page: number): boolean => heap[page + MARK] > UNIFORM;
/**
 * Is page `page` split with a list for its first word ({@link isSplit})? Then it can be neither made uniform nor
 * pending (`PendingPages.pendingState` says NONE).
 */
export const splitListed = (heap: Int32Array, page: number): boolean =>
  isSplit(heap, page) && heap[page + 1] !== 0;
/** The page slot (its check lock's heap index) of the word at address `word`. */
export const lockOf = (word: number): number => (word >> 1) & -PAGE_INTS;
/** The address of the first word of the page at slot `page`. */
export const firstWord = (page: number): number => 2 * page;
/** The address of the word after the last of `word`'s page. */
export const pageEnd = (word: number): number => (word | 7) + 1;
/** Heap index past which no table may end: its word addresses are Int32. */
const TABLE_END = 2 ** 30;

/**
 * The heap index of the head of word `word`'s list, or 0 when it has none: a word 1–7 of a page that is not split or
 * has no record yet, whose list is empty then (the heap's index 0 holds 0); of a paired page, the head of its word's
 * colour in its pair header (of a page whose header is not linked yet, index 1 or 2: 0, an empty list). Not for
 * writing: `Shadow.headFor`.
 */
export function headOf(heap: Int32Array, word: number): number {
  const page = lockOf(word);
  return headIn(heap, page, heap[page + MARK], word & 7); // the marker: in the cache line of the head
}

/**
 * {@link headOf} of word `k` (0–7) of page `page`, whose {@link MARK} the caller has read already (`mark`): a range
 * check's page loop (`Shadow.accessRuns`), which tests the marker first.
 */
export const headIn = (heap: Int32Array, page: number, mark: number, k: number): number =>
  mark === PAIRED
    ? heap[page + SHARED_SLOT] + Pair.EVEN + (k & 1)
    : k === 0
      ? page + 1
      : mark > 0
        ? mark + k
        : 0;

/**
 * Allocates the zeroed word table of a buffer of `words` words: whole pages, 16-byte aligned.
 * @returns the address of its first word. @throws ShadowLimitError when the heap is exhausted, or the table would
 * end past the first 4 GiB of the heap (its addresses would not be Int32).
 */
export function allocTable(s: StateViews, words: number): number {
  const ints = PAGE_INTS * Math.ceil(words / 8);
  const raw = allocHeap(s, ints + PAGE_INTS - 1);
  if (raw + ints + PAGE_INTS > TABLE_END)
    throw new ShadowLimitError(
      `goldilocks: the shadow memory limit is reached: word tables must lie in the first 4 GiB of the detector's ` +
        `state, and a buffer of ${words * 8} bytes was shared after it filled; share less memory per process`,
    );
  return firstWord((raw + PAGE_INTS - 1) & -PAGE_INTS);
}

/** The page slots of the table of `words` words from address `base` ({@link allocTable}): [first, end). */
export const tablePages = (base: number, words: number): [number, number] => [
  lockOf(base),
  lockOf(base) + PAGE_INTS * Math.ceil(words / 8),
];
