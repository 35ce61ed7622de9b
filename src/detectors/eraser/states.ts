/**
 * The per-location state machine of Eraser (Savage, Burrows, Nelson, Sobalvarro, Anderson, "Eraser: A Dynamic Data
 * Race Detector for Multithreaded Programs", TOCS 1997, §2.2, Figure 4), shared by the offline Eraser
 * (`./eraser.ts`, per variable, under Nishiyama's object and sub-block states) and the live one
 * (`src/live/shadow/eraser.ts`, per byte of shared memory). Pure: the candidate locksets are the caller's
 * (hash-consed ids in both), so the transition takes whether the refined candidate lockset is empty.
 *
 * - Virgin: never accessed. The first access makes the location Exclusive to the accessing thread (the caller keeps
 *   the owner); the owner's own accesses then leave it Exclusive and are not checked.
 * - An access by another thread: Exclusive → Shared (a read) or Shared-Modified (a write), with the candidate
 *   lockset C(v) := the locks held ({@link startsLockset}); in Shared or Shared-Modified, C(v) := C(v) ∩ the locks
 *   held, and a write moves Shared to Shared-Modified ({@link next}).
 * - Shared-Modified with an empty C(v) is a warning: the location goes to Conflict, where it is not checked nor
 *   reported again (not Savage's: one report per location, as the offline Eraser always did).
 */

/** Never accessed. */
export const VIRGIN = 0;
/** Accessed by one thread only (its owner). */
export const EXCLUSIVE = 1;
/** Read by several threads, written by at most the first. */
export const SHARED = 2;
/** Written after it was shared. */
export const SHARED_MODIFIED = 3;
/** Warned: Shared-Modified with an empty candidate lockset. */
export const CONFLICT = 4;

/** The state names, for reports. */
export const STATE_NAMES: readonly string[] = ['Virgin', 'Exclusive', 'Shared', 'SharedModified', 'Conflict'];

/**
 * Does an access in `state` that is checked (not the Exclusive owner's, not in Conflict) start the candidate
 * lockset, C(v) := the locks held (Virgin or Exclusive), rather than refine it, C(v) := C(v) ∩ the locks held?
 */
export const startsLockset = (state: number): boolean => state <= EXCLUSIVE;

/**
 * The state after a checked access (not the Exclusive owner's, not in Conflict) in `state`, a write when `write`,
 * that leaves the candidate lockset empty when `empty`: Shared or Shared-Modified, or CONFLICT (a warning) for
 * Shared-Modified with an empty candidate lockset (Savage et al. §2.2).
 */
export function next(state: number, write: boolean, empty: boolean): number {
  if (write || state === SHARED_MODIFIED) return empty ? CONFLICT : SHARED_MODIFIED;
  return SHARED;
}
