/**
 * The Info records' pool of the live shadow (`./goldilocks.ts`): each thread allocates and frees the Info-sized
 * records (8 Int32 of the shadow heap: access records, heads and positions records, shared-list headers, site
 * vectors) through {@link InfoPool}, the base of every live checker; freed records go back to the shared pool in
 * batches of 64 (`CTL.freeInfos` of `../memory/state.ts`).
 */
import { releaseLockset } from '../memory/locksets.js';
import { allocHeap, CTL, lock, rawAtomics, type StateViews, unlock } from '../memory/state.js';
import { Info } from './records.js';

/** One thread's allocation of Info records over the shared state `s` (heap indices; 0 = none). */
export class InfoPool {
  constructor(
    protected readonly s: StateViews,
    /** This thread's id. */
    readonly t: number,
  ) {}

  /** Info records this thread unlinked, reused only by it. */
  protected readonly free: number[] = [];

  /**
   * The free Infos of the batch this thread took from the shared pool ({@link takeBatch}), as their linked list
   * (through `NEXT`; 0 = none): used one at a time after {@link free}.
   */
  private pool = 0;

  /**
   * A free Info record for this thread: the last it freed itself ({@link free}), else {@link allocInfo}'s. The heap
   * may have grown: read `s.heap` again after it.
   */
  protected takeInfo(): number {
    return this.free.pop() ?? this.allocInfo();
  }

  /**
   * A free Info for this thread: the next of {@link pool}, else the first of a batch of the shared pool, else 64 new
   * ones from the heap (one atomic add per 64).
   */
  private allocInfo(): number {
    const s = this.s;
    let e = this.pool;
    if (e === 0) e = this.takeBatch();
    if (e !== 0) {
      if (e + Info.SIZE > s.heap.length) s.refresh(); // freed by a thread that grew the heap
      this.pool = s.heap[e + Info.NEXT];
      return e;
    }
    const base = allocHeap(s, Info.SIZE * 64);
    for (let i = 63; i > 0; i--) this.free.push(base + i * Info.SIZE);
    return base;
  }

  /**
   * Pops one batch (64 records, as {@link release} pushes them) from the shared pool `CTL.freeInfos`, under
   * `CTL.freeInfosLock`: its first record, 0 when the pool is empty. The pool was a single chain taken whole (one
   * exchange), which hoarded it: the thread that took it used its own freed records first, and the others, finding
   * the pool empty, took new records from the heap, whose high-water mark grew with every phase that freed many
   * (moldyn at 4 workers: 7.5 MiB of heap for 0.3 MiB shared, 6 MiB of it in the pool at exit; issue 24 §1 memory).
   */
  private takeBatch(): number {
    const s = this.s;
    const ctl = s.ctl;
    if (rawAtomics.load(ctl, CTL.freeInfos) === 0) return 0;
    lock(s, ctl, CTL.freeInfosLock);
    let first: number;
    for (;;) {
      first = rawAtomics.load(ctl, CTL.freeInfos);
      if (first === 0) break;
      if (first + Info.SIZE > s.heap.length) s.refresh(); // freed by a thread that grew the heap
      // the pushers only push: the batch under `first` is the same until this thread pops it
      if (rawAtomics.compareExchange(ctl, CTL.freeInfos, first, s.heap[first + Info.OWNER]) === first) break;
    }
    unlock(ctl, CTL.freeInfosLock);
    return first;
  }

  /**
   * Info `e`, unlinked from its word under the word's lock, is free. Kept for this thread's next records; past
   * 128 kept, 64 go to the shared pool as one batch (its first record's `OWNER` links the next batch:
   * {@link takeBatch}): a thread that only overwrites others' records (a writer after a reader) would otherwise hoard
   * them while the other allocates without end.
   */
  protected release(e: number): void {
    const heap = this.s.heap;
    const ls = heap[e + Info.LS];
    if (ls !== 0) {
      heap[e + Info.LS] = 0;
      releaseLockset(this.s, ls);
    }
    const free = this.free;
    free.push(e);
    if (free.length < 128) return;
    const first = free.pop() as number;
    let last = first;
    for (let k = 1; k < 64; k++) {
      const n = free.pop() as number;
      heap[last + Info.NEXT] = n;
      last = n;
    }
    heap[last + Info.NEXT] = 0;
    const ctl = this.s.ctl;
    for (;;) {
      const head = rawAtomics.load(ctl, CTL.freeInfos);
      heap[first + Info.OWNER] = head; // the next batch
      if (rawAtomics.compareExchange(ctl, CTL.freeInfos, head, first) === head) return;
    }
  }
}
