/**
 * The race record of both front ends: what `goldilocks check` (offline, from a detector's interned
 * `Race`, src/detectors/detector.ts) and `goldilocks run` (live, from the shadow check's `Conflict`, src/live/races.ts) report,
 * what the text renderer (./text.ts) prints and what the JSON report (./json.ts, schema `goldilocks-report/1`,
 * docs/REPORT.md) lists. Names are as written in the trace, or as the live runtime makes them (`T3`, `sab#1+8`).
 */
import type { AccessRef, Race } from '../detectors/detector.js';
import type { Symbols } from '../model/symbols.js';

/** One access of a race. */
export interface RaceAccess {
  /** 0-based position of the event among the trace's events; -1 live (a run has no event indexes). */
  index: number;
  thread: string;
  access: 'read' | 'write';
  /** Inside a transaction (checked at its commit, PLDI'07 §5.3). */
  transactional: boolean;
  /** The data access of an atomic operation (`ard`/`awd` in a trace; `Atomics.*` live): an ECMA-262 seq-cst event. */
  atomic: boolean;
  /** Source location as written in the trace, or the live `file:line:column` ('' when none). */
  location: string;
  /**
   * Set on a transactional access only: where its transaction committed, which is also its `location` (the
   * `commit` event's; live, the `stm.atomic` call whose commit checked it: a transaction's accesses are checked
   * at its commit, §5.3, and are not located one by one).
   */
  committedAt?: string;
  /**
   * Live only: the access's stack, one frame a line (`at f (file:1:2)`), in the program's source coordinates: the
   * current access's always, the previous access's with `--history`.
   */
  stack?: string;
  /**
   * Live only, under `node --test`: the test file and the name of the test (`describe > it`) that was running in the
   * access's thread.
   */
  test?: TestName;
}

/**
 * An access in words, without its location: `atomic write by thread T2`; a transactional one `write inside a
 * transaction by thread T2` (its location is where the transaction committed). For renderers that show the location
 * apart (HTML, SARIF); the text report adds it (`./text.ts`).
 */
export const accessWords = (a: RaceAccess): string =>
  a.transactional
    ? `${a.access} inside a transaction by thread ${a.thread}`
    : `${a.atomic ? 'atomic ' : ''}${a.access} by thread ${a.thread}`;

/** A test of node:test, as a race names it. */
export interface TestName {
  /** The test file (a path). */
  file: string;
  /** The test's name, its suites' names first, joined by ` > `. */
  name: string;
}

/** Live only: where the memory of a race came from. */
export interface Allocation {
  /**
   * The `file:line:column` of the `new SharedArrayBuffer(...)` or `new WebAssembly.Memory(...)` that made it; ''
   * when the runtime did not see it made (uninstrumented code, a WebAssembly module's own memory): then `thread`
   * is the thread that met it first.
   */
  location: string;
  /** The thread that made it (`T0`). */
  thread: string;
  /** `SharedArrayBuffer` or `WebAssembly.Memory`. */
  kind: string;
  /** Its length in bytes when it was made (a growable buffer's, a memory's: the most it can grow to). */
  bytes: number;
}

/** Live only: where the racing bytes are. */
export interface MemoryLocation {
  /** Process-unique id of the SharedArrayBuffer (`sab#id` in reports). */
  buffer: number;
  /** First racing byte. */
  byteOffset: number;
  /** Bytes of the current access. */
  size: number;
  /** Constructor name of the view (`Int32Array`, `DataView`, ...) or the bulk method (`TypedArray#set`). */
  elementType: string;
  /** An element access's index in its view (`Int32Array element [3]`); absent for other accesses. */
  index?: number;
  /** An element access's first byte in the buffer (`bytes 12–15`); absent for other accesses. */
  start?: number;
}

/** A race declared at `current` (the later access) against `previous` on `variable`. */
export interface RaceRecord {
  /** The racy variable: its name in the trace, or live `sab#<buffer>+<byteOffset>` (`<n>/` prefixed per process). */
  variable: string;
  /** Live only: the racing bytes. */
  memory?: MemoryLocation;
  /** Live only: where the racing bytes' buffer was made, and by which thread. */
  allocation?: Allocation;
  current: RaceAccess;
  previous: RaceAccess;
  /**
   * goldilocks/eager: the lockset computed for the previous access at the current one (`TL` for a transaction);
   * eraser: the locks held at the current access; absent for the vector-clock detectors (djit, fasttrack).
   */
  lockset?: string[];
  /**
   * Live only: the {@link lockset} in the program's words, item for item (`Mutex 'connection'`, `Atomics on
   * Int32Array[1] of <allocation>`, `postMessage from T0 at file:line`, `thread T0`).
   */
  locksetNames?: string[];
  /** How the detector decided, in its own terms (which lockset walk, which epochs). */
  detail: string;
  /** False for eraser's warnings: potential races (a lockset violation), not proven ones. */
  precise: boolean;
}

function accessOf(s: Symbols, a: AccessRef): RaceAccess {
  const location = s.locations.name(a.loc);
  return {
    index: a.index,
    thread: s.threads.name(a.thread),
    access: a.write ? 'write' : 'read',
    transactional: a.xact,
    atomic: a.atomic,
    location,
    ...(a.xact ? { committedAt: location } : {}),
  };
}

/**
 * The record of race `r` an offline detector declared over the ids of `symbols`; `precise` is false for eraser's
 * warnings. Called for the races listed only (a detector may declare hundreds of thousands: ../report/collector.ts
 * keeps them interned).
 */
export function raceOf(s: Symbols, r: Race, precise: boolean): RaceRecord {
  return {
    variable: s.variables.name(r.variable),
    current: accessOf(s, r.current),
    previous: accessOf(s, r.previous),
    ...(r.lockset ? { lockset: r.lockset } : {}),
    detail: r.detail,
    precise,
  };
}
