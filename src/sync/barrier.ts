import { A, observer, type SyncRef } from './observer.js';
import { attach, checkCount, type Placement, type SyncHandle, SyncPrimitive } from './primitive.js';
import { Site } from './sites.js';

/** Word 0: the number of parties (constant). */
const PARTIES = 0;
/** Word 1: parties arrived in the current generation. */
const ARRIVED = 1;
/** Word 2: the generation, +1 each time all parties have arrived (wraps at 2^32). */
const GENERATION = 2;

/**
 * A reusable barrier for a fixed number of parties over three Int32 words of a `SharedArrayBuffer`: `[0]` parties,
 * `[1]` parties arrived in the current generation, `[2]` the generation. The last to arrive resets `[1]`, then
 * increments `[2]` and `Atomics.notify`s everyone `Atomics.wait`ing on it (ECMA-262 §25.4). Exactly `parties`
 * threads must call `wait` per generation; there is no timeout (a party that gave up would break the barrier for
 * the rest).
 *
 * Observer (kind `'barrier'`): each arrival `publish`es and each departure `subscribe`s, so every arrival
 * happens-before every departure of the same generation. Generations alternate between two refs (`<name>#0` at
 * `byteOffset`, `<name>#1` at `byteOffset + 4`, by generation parity), so a fast thread's arrival at the next
 * generation gives no edge to a slow thread still leaving this one.
 */
export class Barrier extends SyncPrimitive {
  /** Bytes of the region (three Int32 words). */
  static readonly BYTES = 12;
  /** Threads that must arrive for a generation to complete. */
  readonly parties: number;
  private readonly refs: readonly [SyncRef, SyncRef];

  /**
   * @param parties threads per generation, an integer ≥ 1.
   * @param name for reports; default `barrier-<threadId>-<n>`.
   * @param at where to put the words (initialized here); default a new SharedArrayBuffer.
   * @throws RangeError when `parties` is out of range.
   */
  constructor(parties: number, name?: string, at?: Placement) {
    checkCount('parties', parties, 1);
    super('barrier', 3, name, at, (w) => A.store(w, PARTIES, parties, Site.BarrierInit));
    this.parties = A.load(this.words, PARTIES, Site.BarrierParties);
    this.refs = [this.refAt(0, `${this.name}#0`), this.refAt(1, `${this.name}#1`)];
  }

  /** The barrier whose `handle` this is (made in this or another thread), with its parties. */
  static from(handle: SyncHandle): Barrier {
    return new Barrier(1, handle.name, attach(handle));
  }

  /**
   * Blocks until all parties of the current generation have called `wait`.
   * @returns true in exactly one thread per generation (the last to arrive, the "serial" one), false in the rest.
   */
  wait(): boolean {
    const w = this.words;
    const g = A.load(w, GENERATION, Site.BarrierGeneration);
    const ref = this.refs[g & 1];
    observer?.publish(ref);
    const serial = A.add(w, ARRIVED, 1, Site.BarrierArrive) + 1 === this.parties;
    if (serial) {
      A.store(w, ARRIVED, 0, Site.BarrierReset);
      A.add(w, GENERATION, 1, Site.BarrierAdvance);
      A.notify(w, GENERATION, Infinity, Site.BarrierWake);
    } else {
      while (A.load(w, GENERATION, Site.BarrierPoll) === g)
        A.wait(w, GENERATION, g, Infinity, Site.BarrierSleep);
    }
    observer?.subscribe(ref);
    return serial;
  }
}
