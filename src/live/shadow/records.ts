/**
 * The Info record's layout and the flag bits of an access, shared by every live checker (`./goldilocks.ts`,
 * `./fasttrack.ts`, `./eraser.ts`), the page machinery (`./pages.ts`) and the Info pool (`./info-pool.ts`): an Info
 * is 8 Int32 of the shadow heap (PLDI'07 §4: the paper's `WriteInfo`/`ReadInfo`, with `pos` an index into the
 * synchronization event list); a word's list of them is linked through `NEXT` from its head (`./table.ts`).
 */

/** Words of a shared list's header (an Info-sized record): its reference count, then its first Info. */
export enum Shared {
  REFS = 0,
  FIRST = 1,
}

/**
 * Words of a paired page's pair header (an Info-sized record, `Pages.pair` of `./pages.ts`), shared by the pages whose
 * two lists equal its own: its reference count, the first Info of its even words' list, of its odd words'.
 */
export enum Pair {
  REFS = 0,
  EVEN = 1,
  ODD = 2,
}

/**
 * The flag bits of an access and of an Info's `flags` word: the byte mask (bits 0–7, one per byte of the 8-byte
 * word), WRITE, ATOMIC, and XACT (an access inside a transaction, checked at its commit: §5.3,
 * `../stm-observer.ts`). A `const enum`, so that the compiled code holds the numbers themselves: V8 reads an
 * exported module constant through a cell, with a hole check and a tag check, at each use in the hot path.
 */
// biome-ignore lint/suspicious/noConstEnum: inlined by tsc into dist/ (the point, see above); tsx keeps an object
export const enum Access {
  MASK = 0xff,
  WRITE = 1 << 8,
  ATOMIC = 1 << 9,
  XACT = 1 << 10,
}
/**
 * An Info record's words (the online peers share the layout): `NEXT` (the word's next Info), `FLAGS` (an
 * {@link Access} mask and kind), `OWNER` (thread), `POS` (list position), `SITE`, `ALOCK_A`/`ALOCK_B` (the alock's
 * object key), `LS` (its explicit lockset, `../memory/locksets.ts`, 0 = {owner} at `pos`); `SIZE` Int32 in all.
 */
// biome-ignore lint/suspicious/noConstEnum: as Access
export const enum Info {
  NEXT = 0,
  FLAGS = 1,
  OWNER = 2,
  POS = 3,
  SITE = 4,
  ALOCK_A = 5,
  ALOCK_B = 6,
  LS = 7,
  SIZE = 8,
}

/** Do the lists from Infos `a` and `b` hold equal records (every word but `NEXT`), in the same order? */
export function sameList(heap: Int32Array, a: number, b: number): boolean {
  for (; a !== 0 && b !== 0; a = heap[a + Info.NEXT], b = heap[b + Info.NEXT])
    for (let f = 1; f < Info.SIZE; f++) if (heap[a + f] !== heap[b + f]) return false;
  return a === b;
}
