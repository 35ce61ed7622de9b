/**
 * How the live runtime sees transactions (issue 23 §2; Goldilocks, PLDI'07 §5.3). The runtime calls
 * `setStmObserver` in every thread that loads the STM (this module is instantiated once per thread), when `./index.ts`
 * hands it the {@link StmLibrary} (`../hooks/libraries.ts`: the runtime loads none of the STM); the STM then reports each
 * commit, at its commit point, and performs its own atomic operations with the functions the observer gives
 * (the runtime's originals, not its patched `Atomics`): the STM's clock, ownership records and write-back are its
 * implementation, not program synchronization — the paper's modular check trusts the transaction specification
 * and ignores the implementation. With no observer set, a report costs one `if`.
 */

/** The `Atomics` functions the STM uses. */
export type AtomicsLike = Pick<
  typeof Atomics,
  'load' | 'store' | 'add' | 'sub' | 'compareExchange' | 'wait' | 'notify'
>;

/**
 * A commit's accesses, flat: for each location `buffer, byteIndex, bytes` (`bytes` a mask of the bytes accessed
 * in the aligned 8-byte word at `byteIndex`, which is a multiple of 8; bit i = byte `byteIndex + i`).
 */
export type AccessLog = (SharedArrayBuffer | number)[];

export interface StmObserver {
  /** The atomic operations of the STM's implementation (the runtime's unpatched ones). */
  readonly atomics: AtomicsLike;
  /**
   * Before an attempt's commit (optional), with the logs {@link commit} will be given: called before the attempt
   * locks its ownership records, for the work on the logs that needs no record, and to take locks that the commit
   * point needs and that come before the records in the observer's lock order (the live runtime's check locks of the
   * words accessed). After it, exactly one of {@link commit} and {@link cancel} is called: the attempt may still fail
   * its validation before its commit point (then `cancel`, and the next attempt prepares again). The logs are valid
   * until `commit` returns. A throw aborts the attempt (nothing is locked, nothing written) and propagates.
   */
  prepare?(reads: AccessLog, writes: AccessLog): void;
  /** The prepared attempt ends without reaching its commit point (optional): it releases what `prepare` took. */
  cancel?(): void;
  /**
   * The commit point of a transaction (TL2 §2.1 step 5: the records it writes locked, nothing written back yet):
   * `reads` are the locations it read from memory, `writes` those it will write. The observer calls `validate`
   * (step 5) once, in the critical section in which it orders the commit among the program's synchronization, and
   * reports the commit only when it returns true; it returns false when it did not report it (the attempt then
   * aborts and runs again). The reads were validated just before the call too: an observer that never calls
   * `validate` reports every commit that passed that (in an order that may differ from the serialization). A throw aborts
   * the commit (nothing is written, the records keep their versions) and propagates out of `atomic`.
   */
  commit(reads: AccessLog, writes: AccessLog, validate: () => boolean): boolean | undefined;
  /** After a reported commit has written back and released its records (optional): for work the commit deferred. */
  released?(): void;
}

/**
 * What `./index.ts` hands the runtime's link when the STM is loaded in a thread (`STM_LINK`, `../hooks/libraries.ts`),
 * before any of its code can run there.
 */
export interface StmLibrary {
  /** {@link setStmObserver} of this copy of the STM. */
  readonly setStmObserver: (o: StmObserver | undefined) => void;
  /** `STM.prototype.atomic`: a commit is reported at the call of it that committed (a sited method). */
  readonly atomic: (...args: never[]) => unknown;
}

/** The observer of this thread (an ES live binding; assign through `setStmObserver`). */
export let observer: StmObserver | undefined;

/** The Atomics the STM uses in this thread: the observer's, or the global ones. */
export let A: AtomicsLike = Atomics;

/** Sets (or with `undefined`, removes) the observer of the calling thread. */
export function setStmObserver(o: StmObserver | undefined): void {
  observer = o;
  A = o?.atomics ?? Atomics;
}
