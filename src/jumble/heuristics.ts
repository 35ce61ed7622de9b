/**
 * The adversary: which visible value a racy read returns (Flanagan & Freund, PLDI'10, §5.1 "Heuristics", §5.2
 * "Non-Atomic Longs and Doubles"), with the points the paper leaves open fixed as ../shared/JUMBLE.md §11.3-11.4 (and
 * errata §10.12-15) say. Over D, the distinct values of the visible entries ordered by their oldest occurrence
 * (`./visible.ts`), with `n` the newest entry and `last` the value most recently returned by a read of the location:
 *
 * ```
 * if |D| = 1:                 r := val(n)          (no choice: not an adversarial read)
 * else if stale[t] ≥ K:       r := val(n)          (fairness)
 * else  SC:     r := val(n)
 *       Oldest: r := D[0]
 *       OBD:    r := first d ∈ D with d ≠ last      (no last → D[0]; none → val(n))
 *       Random: r := uniform over D
 *       RBD:    r := uniform over D \ {last}        (no last → uniform over D; empty → val(n))
 * last := r;  stale[t] := r ≠ val(n) ? stale[t] + 1 : 0
 * ```
 *
 * - **Fairness** (§1.2: "any unbounded sequence of reads to a particular variable will sometimes return the most
 *   recently-written value"; the mechanism is not given): after K consecutive stale reads of a location by one
 *   thread (default K = 16, {@link DEFAULT_FAIRNESS}; `Infinity` = off), the next returns the newest value. It
 *   applies to every heuristic (OBD can alternate between two old values forever: JUMBLE.md §10.14).
 * - **Randomness**: one PRNG (mulberry32) per thread, seeded from `seed` and the thread id, so a run's choices are
 *   reproducible given the same reads.
 * - **Tearing** (8-byte values where the language allows it: Java long/double, JavaScript Float64, non-atomic
 *   BigInt64, DataView 8-byte reads — never Int8…Uint32 elements): when the buffer is `tearable`, |D| ≥ 2, the heuristic is not SC
 *   and fairness does not force the newest value, the read takes one 4-byte half of the chosen entry and the other
 *   half of a second, different visible value chosen by the same heuristic on D without the first; which half comes
 *   from the first alternates per (thread, location), starting from a seeded coin. `last` then records "torn" (NaN:
 *   a composed value equals no entry's).
 * The entries returned are the newest visible entry of each chosen value. No allocation per read.
 */
import { JUMBLE_HEURISTICS } from '../live/options.js';
import { growAtLeast } from '../model/interner.js';
import type { WriteBuffer } from './buffer.js';
import { distinct, visible } from './visible.js';

/**
 * The heuristics of §5.1, by name: Sequentially-Consistent, Oldest, Oldest-But-Different, Random, Random-But-Different
 * (defined with the command line's option values, which load nothing else).
 */
export const HEURISTICS = JUMBLE_HEURISTICS;
export type HeuristicName = (typeof HEURISTICS)[number];
const SC = 0;
const OLDEST = 1;
const OBD = 2;
const RANDOM = 3;

/** Default fairness bound K: consecutive stale reads per thread and location before the newest value is forced. */
export const DEFAULT_FAIRNESS = 16;

export interface AdversaryOptions {
  heuristic: HeuristicName;
  /** Base seed of the per-thread PRNGs (default 0). */
  seed?: number;
  /** Fairness bound K (default 16); `Infinity` switches fairness off. */
  fairness?: number;
}

/**
 * The next number in [0, 1) of mulberry32 (T. Ettinger, public domain) for the state `s[i]`, advancing it.
 */
export function mulberry32(s: Uint32Array, i: number): number {
  const a = (s[i] + 0x6d2b79f5) >>> 0;
  s[i] = a;
  let t = Math.imul(a ^ (a >>> 15), 1 | a);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * Chooses what reads return, by one heuristic (see the file header). After {@link read}, the fields describe the
 * choice: `entry` (the entry whose value, or whose half, is returned), for a torn read `second` and `highFromEntry`,
 * `distinct` = |D|, `visibleCount`, `forced` (fairness forced the newest value), `stale` (not the newest value).
 */
export class Adversary {
  readonly heuristic: number;
  readonly seed: number;
  readonly fairness: number;
  entry = -1;
  second = -1;
  torn = false;
  /** For a torn read: whether the high half comes from `entry` (the low half then from `second`). */
  highFromEntry = true;
  forced = false;
  stale = false;
  distinct = 0;
  visibleCount = 0;
  /** The visible entries (oldest first) and the distinct values' entries of the last read. */
  vis = new Int32Array(64);
  dist = new Int32Array(64);
  private rng = new Uint32Array(8);
  private seeded = new Uint8Array(8);

  constructor(o: AdversaryOptions) {
    const h = HEURISTICS.indexOf(o.heuristic);
    if (h < 0) throw new RangeError(`unknown heuristic '${o.heuristic}' (expected ${HEURISTICS.join(', ')})`);
    this.heuristic = h;
    this.seed = (o.seed ?? 0) >>> 0;
    this.fairness = o.fairness ?? DEFAULT_FAIRNESS;
  }

  /**
   * A read of the location of `b` by thread t with clock C_t (`cw` Int32 at `C[off …]`): chooses the entry it
   * returns (the fields above) and updates the adversary state of `b`. @returns `entry`.
   */
  read(b: WriteBuffer, t: number, C: Int32Array, off: number, cw: number): number {
    if (this.vis.length < b.length) {
      this.vis = new Int32Array(b.capacity * 2);
      this.dist = new Int32Array(b.capacity * 2);
    }
    b.ensureThread(t);
    const k = visible(b, C, off, cw, this.vis);
    const d = distinct(b, this.vis, k, this.dist);
    const newest = b.length - 1;
    this.visibleCount = k;
    this.distinct = d;
    this.torn = false;
    this.second = -1;
    this.forced = false;
    let r = newest;
    if (d > 1) {
      if (b.stale[t] >= this.fairness) this.forced = true;
      else {
        const j = this.pick(b, t, -1);
        r = j < 0 ? newest : this.dist[j];
        if (b.tearable && this.heuristic !== SC) this.tear(b, t, j < 0 ? this.newestPosition(newest) : j);
      }
    }
    this.entry = r;
    this.stale = this.torn || b.value[r] !== b.value[newest];
    b.last = this.torn ? Number.NaN : b.value[r];
    b.stale[t] = this.stale ? b.stale[t] + 1 : 0;
    return r;
  }

  /**
   * The heuristic's choice among D = `dist[0 … distinct-1]` without position `skip` (-1: none): a position in
   * `dist`, or -1 for the newest value.
   */
  private pick(b: WriteBuffer, t: number, skip: number): number {
    const d = this.distinct;
    const dist = this.dist;
    const value = b.value;
    const last = b.last;
    switch (this.heuristic) {
      case SC:
        return -1;
      case OLDEST:
        return skip === 0 ? (d > 1 ? 1 : -1) : 0;
      case OBD:
        for (let j = 0; j < d; j++) if (j !== skip && value[dist[j]] !== last) return j;
        return -1;
      default: {
        // Random, or Random-But-Different (which also leaves out the last value read)
        const butDifferent = this.heuristic !== RANDOM;
        let m = 0;
        for (let j = 0; j < d; j++) if (j !== skip && !(butDifferent && value[dist[j]] === last)) m++;
        if (m === 0) return -1;
        let c = Math.floor(this.random(t) * m);
        for (let j = 0; j < d; j++) {
          if (j === skip || (butDifferent && value[dist[j]] === last)) continue;
          if (c-- === 0) return j;
        }
        return -1;
      }
    }
  }

  /** Tearing (§5.2): a second value by the same heuristic on D without position j, and the half alternation. */
  private tear(b: WriteBuffer, t: number, j: number): void {
    let s = this.pick(b, t, j);
    if (s < 0) {
      // the heuristic fell back to the newest value; if that is the first one, the other oldest
      s = this.newestPosition(b.length - 1);
      if (s === j) s = j === 0 ? 1 : 0;
    }
    this.torn = true;
    this.second = this.dist[s];
    if (b.half[t] === 0) b.half[t] = this.random(t) < 0.5 ? 1 : 2;
    this.highFromEntry = b.half[t] === 1;
    b.half[t] = b.half[t] === 1 ? 2 : 1;
  }

  /** The position in D of the newest entry's value (D keeps each value's newest visible entry). */
  private newestPosition(newest: number): number {
    let p = this.distinct - 1;
    while (this.dist[p] !== newest) p--;
    return p;
  }

  /** A number in [0, 1) from thread t's PRNG. */
  private random(t: number): number {
    if (t >= this.rng.length) {
      this.rng = growAtLeast(this.rng, t + 1);
      this.seeded = growAtLeast(this.seeded, t + 1);
    }
    if (this.seeded[t] === 0) {
      this.seeded[t] = 1;
      this.rng[t] = (this.seed ^ Math.imul(t + 1, 0x9e3779b9)) >>> 0;
    }
    return mulberry32(this.rng, t);
  }
}
