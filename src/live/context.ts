/**
 * The per-thread context of the live runtime that its parts share: what an interceptor (`./intercept/`), the
 * message and thread observers (`./messages.ts`, `./threads.ts`) and the sync-library observer
 * (`./sync-observer.ts`) need of the thread's runtime (`./runtime.ts`, which makes one {@link Context} per thread).
 * Types only: this module imports nothing at run time, so every part can import it without a cycle.
 */
import type { StateViews } from './memory/state.js';
import type { Conflict, Shadow } from './shadow/goldilocks.js';

/** A function whose frame (and those above it) a captured stack leaves out. */
// biome-ignore lint/suspicious/noExplicitAny: any function, as Error.captureStackTrace takes it
export type Callee = (...args: any[]) => unknown;

/** What was accessed: a patched method's name, or the view of an element access (named only in a report). */
export type Accessed = string | ArrayBufferView;

/**
 * Checks the data access of bytes [off, off + size) of `buffer` (flags: WRITE) at site `site` (a string id);
 * `fn` is the outermost runtime frame, left out of the racing access's stack.
 * @throws DataRaceException in `throw` mode when it races.
 */
export type CheckRange = (
  buffer: SharedArrayBuffer,
  off: number,
  size: number,
  flags: number,
  site: number,
  what: Accessed,
  fn: Callee,
) => void;

/**
 * Checks the bytes `mask` of word `w` of buffer `id` (its word table's first word at address `base`) for an access of `size`
 * bytes (flags: WRITE) at site `site`, and reports a conflict at its first racing byte (see {@link Race}): the
 * element access path's check (`./views.ts`).
 * @throws DataRaceException in `throw` mode when it races.
 */
export type CheckWord = (
  id: number,
  base: number,
  w: number,
  mask: number,
  flags: number,
  site: number,
  size: number,
  what: Accessed,
  fn: Callee,
) => void;

/**
 * Checks the access of `size` bytes (1–8) at byte `off` of `buffer`, shared (flags: WRITE) by `fn` (a DataView
 * method, `./intercept/dataview.ts`), its site the caller's (`Context.callerSite`): as {@link CheckRange} does, and
 * with the element accesses' same-epoch filter when its bytes lie in one 8-byte word (`./views.ts`; FastTrack PLDI'09 §3: an
 * access of bytes this thread already checked in its epoch, read or written for a read, written for a write, needs
 * no check), its site found only when the filter does not cover it.
 * @throws DataRaceException in `throw` mode when it races.
 */
export type CheckBytes = (
  buffer: SharedArrayBuffer,
  off: number,
  size: number,
  flags: number,
  what: Accessed,
  fn: Callee,
) => void;

/**
 * Reports conflict `c` of an access of `size` bytes of buffer `id` whose first racing byte is `off`: prints and
 * records it, aborts or throws as `--on-race` says. A race on bytes annotated benign, or suppressed by
 * `--suppressions`, is excused (`./excuses.ts`): only counted, and the access goes on.
 * @returns true when excused (the caller lets an access that `stopOnRace` kept from happening happen after all),
 * false when reported and not stopped.
 */
export type Race = (
  c: Conflict,
  id: number,
  off: number,
  size: number,
  flags: number,
  site: number,
  what: Accessed,
  fn: Callee,
) => boolean;

/** Everything a patch needs from this thread's runtime (`./intercept/`). */
export interface Context {
  readonly s: StateViews;
  readonly shadow: Shadow;
  readonly t: number;
  /**
   * Is `o` a TypedArray over a SharedArrayBuffer of the program (not one of the detector's state)? The last two
   * values found not to be are kept: asking again about them is a comparison or two.
   */
  readonly shared: (o: unknown) => boolean;
  /** The shadow id of a SharedArrayBuffer, registering it on first sight. */
  idOf(buffer: SharedArrayBuffer): number;
  /** The address of buffer `id`'s first word (`./shadow/table.ts`): its word w is `base + w`. */
  baseOf(id: number): number;
  /**
   * String id of the user frame calling `fn` (a patched function): the static site of the rewritten call running
   * it (`Hooks.sited`, `Hooks.atomics`), else the frame right below it, or, when `outside`,
   * the first frame below it that is in a file and in neither Node's own code (`node:` modules; builtins such as
   * `JSON.stringify` have no file) nor the runtime's: the call of `console.log` that reached an inspection hook.
   */
  callerSite(fn: Callee, outside?: boolean): number;
  /** Checks a data access (see {@link CheckRange}). */
  checkRange: CheckRange;
  /** Checks a data access of at most 8 bytes with the same-epoch filter (see {@link CheckBytes}). */
  checkBytes: CheckBytes;
  /** Runs `body` holding the list lock. */
  listLocked<T>(body: () => T): T;
  /** Reports a race found by an atomic operation, after its locks are released (see {@link Race}). */
  race: Race;
  /** Does a race stop the access (`throw`, `abort`) rather than only being reported. */
  readonly stopOnRace: boolean;
  /**
   * Whether this thread may skip an access's check, record and cells now: it is the main thread, alone (`./alone.ts`),
   * and nothing else needs the access (no `--record`, no jumbled memory, a happens-before detector).
   */
  alone(): boolean;
}
