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
  /** Live only, the current access only: the racing access's stack, one frame a line (`at f (file:1:2)`). */
  stack?: string;
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
}

/** A race declared at `current` (the later access) against `previous` on `variable`. */
export interface RaceRecord {
  /** The racy variable: its name in the trace, or live `sab#<buffer>+<byteOffset>` (`<n>/` prefixed per process). */
  variable: string;
  /** Live only: the racing bytes. */
  memory?: MemoryLocation;
  current: RaceAccess;
  previous: RaceAccess;
  /**
   * goldilocks/eager: the lockset computed for the previous access at the current one (`TL` for a transaction);
   * eraser: the locks held at the current access; absent for the vector-clock detectors (djit, fasttrack).
   */
  lockset?: string[];
  /** How the detector decided, in its own terms (which lockset walk, which epochs). */
  detail: string;
  /** False for eraser's warnings: potential races (a lockset violation), not proven ones. */
  precise: boolean;
}

function accessOf(s: Symbols, a: AccessRef): RaceAccess {
  return {
    index: a.index,
    thread: s.threads.name(a.thread),
    access: a.write ? 'write' : 'read',
    transactional: a.xact,
    atomic: a.atomic,
    location: s.locations.name(a.loc),
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
