/**
 * Which threads may still act at each event of a trace, for a sound [GC1] offline (../shared/JUMBLE.md §4.6.5, §11.5,
 * §12 "Pre-pass"): [GC1] may quantify over the threads that can still read, but a thread that will start without a
 * fork event inherits no clock (it starts at inc_u(⊥) and can read every entry), so while one is still to come [GC1]
 * must not run. A thread forked but not started yet keeps the clock its fork gave it, and counts.
 *
 * {@link ThreadSpans} is filled by a cheap pre-pass over the trace's events (first and last event of each thread, and
 * whether a fork preceded its first event); {@link LiveSet} then answers, at event `ev`, with the clock rows of the
 * threads that have started or been forked and have events after `ev`.
 */
import type { ClockTable } from '../../detectors/vectorclock/clocks.js';
import { type EventBatch, FORK } from '../../model/events.js';
import { growAtLeast, growFilled } from '../../model/interner.js';
import type { LiveThreads } from '../gc.js';

/** Per thread id: its first and last event index (-1: none) and whether a fork of it came before its first event. */
export class ThreadSpans {
  first: Float64Array = new Float64Array(16).fill(-1);
  last: Float64Array = new Float64Array(16).fill(-1);
  forked: Uint8Array = new Uint8Array(16);

  /** Records a batch of the pre-pass. */
  add(b: EventBatch): void {
    const { kind, thread, target } = b;
    for (let i = 0; i < b.length; i++) {
      const ev = b.firstIndex + i;
      const t = thread[i];
      this.ensure(t);
      if (this.first[t] < 0) this.first[t] = ev;
      this.last[t] = ev;
      if (kind[i] === FORK) {
        const u = target[i];
        this.ensure(u);
        if (this.first[u] < 0) this.forked[u] = 1;
      }
    }
  }

  /** Thread ids seen. */
  get size(): number {
    let n = this.first.length;
    while (n > 0 && this.first[n - 1] < 0 && this.forked[n - 1] === 0) n--;
    return n;
  }

  private ensure(t: number): void {
    if (t < this.first.length) return;
    const n = Math.max(t + 1, this.first.length * 2);
    this.first = growFilled(this.first, n, -1);
    this.last = growFilled(this.last, n, -1);
    this.forked = growAtLeast(this.forked, n);
  }
}

/** The threads that may still act at an event, as clock rows of a thread-clock table (see the file header). */
export class LiveSet {
  private readonly live: LiveThreads = {
    data: new Int32Array(0),
    width: 0,
    offsets: new Int32Array(16),
    count: 0,
  };
  /** Threads forked so far (by the main pass's fork events). */
  private forkedNow: Uint8Array = new Uint8Array(16);
  /** The live set is valid for events in [validFrom, validTo) with this table width and fork count. */
  private validFrom = 0;
  private validTo = -1;
  private width = 0;
  private forks = 0;
  private forksSeen = -1;
  private blocked = false;

  constructor(
    private readonly spans: ThreadSpans,
    /** Makes thread t's clock row exist (C_t[t] ≥ 1): the detector's `thread(t)`. */
    private readonly start: (t: number) => void,
  ) {}

  /** The main pass saw fork(·, u). */
  forked(u: number): void {
    if (u >= this.forkedNow.length) this.forkedNow = growAtLeast(this.forkedNow, u + 1);
    this.forkedNow[u] = 1;
    this.forks++;
  }

  /**
   * The threads that may act after event `ev`, with their clock rows in `C`, or undefined while a thread that will
   * start unforked is still to come ([GC1] must not run).
   */
  at(ev: number, C: ClockTable): LiveThreads | undefined {
    if (ev < this.validFrom || ev >= this.validTo || C.width !== this.width || this.forks !== this.forksSeen)
      this.compute(ev, C);
    if (this.blocked) return undefined;
    this.live.data = C.data;
    return this.live;
  }

  private compute(ev: number, C: ClockTable): void {
    const { first, last, forked } = this.spans;
    const n = this.spans.size;
    let next = Number.POSITIVE_INFINITY;
    let count = 0;
    this.blocked = false;
    if (this.live.offsets.length < n) this.live.offsets = new Int32Array(n * 2);
    for (let t = 0; t < n; t++) {
      if (last[t] > ev && last[t] < next) next = last[t];
      if (first[t] > ev && first[t] < next) next = first[t];
      if (last[t] <= ev) continue; // finished (or no events)
      const started = first[t] >= 0 && first[t] <= ev;
      const forkedNow = t < this.forkedNow.length && this.forkedNow[t] === 1;
      if (!started && !forkedNow) {
        if (forked[t] === 0) this.blocked = true; // will start unforked, at clock inc_u(⊥)
        continue; // forked later by a live thread: covered by its forker
      }
      this.start(t);
      this.live.offsets[count++] = t; // rows: scaled below, once the width is final
    }
    const w = C.width;
    for (let k = 0; k < count; k++) this.live.offsets[k] *= w;
    this.live.count = count;
    this.live.width = w;
    this.width = w;
    this.forksSeen = this.forks;
    this.validFrom = ev;
    this.validTo = next;
  }
}
