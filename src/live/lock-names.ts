/**
 * The lockset of a race in the program's words (issue 25 §1): each lockset key of the live checker
 * (`Shadow.keyName`, `./shadow/goldilocks.ts`) named as the program knows it — `Mutex 'connection'` for a
 * goldilocks/sync primitive (named by the sync observer, `./sync-observer.ts`, in the buffer's allocation entry,
 * `./buffers.ts`), `Atomics on [1] (bytes 4–7) of <buffer>` for an atomic location, `message #12 (postMessage)`,
 * `T0` for a thread. A buffer is named by the primitive at or before the offset, else by where it was made.
 */
import type { SyncKind, SyncRef } from '../sync/observer.js';
import type { Buffers } from './buffers.js';
import { Tag } from './memory/state.js';
import { keyParts } from './shadow/goldilocks.js';

/** The class of each kind of primitive (`../sync/`). */
const CLASSES: Record<SyncKind, string> = {
  mutex: 'Mutex',
  rwlock: 'ReadWriteLock',
  semaphore: 'Semaphore',
  barrier: 'Barrier',
  condition: 'Condition',
};

const bytes = (first: number, size: number): string =>
  size === 1 ? `byte ${first}` : `bytes ${first}–${first + size - 1}`;

/** This thread's naming of synchronization objects. */
export class LockNames {
  /** The primitives this thread named already (`id+offset`). */
  private readonly noted = new Set<string>();

  constructor(private readonly buffers: Buffers) {}

  /** Names the primitive of `ref` (in buffer `id`) once per thread: `Mutex 'connection'`. */
  note(ref: SyncRef, id: number): void {
    const key = `${id}+${ref.byteOffset}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.buffers.nameAt(id, ref.byteOffset, `${CLASSES[ref.kind]} '${ref.name}'`);
  }

  /** Lockset key `key` in the program's words (see the file header). A property: passed on as a function. */
  readonly nameOf = (key: number): string => {
    if (key < 2 ** 32) return `T${key}`;
    const { tag, id, b } = keyParts(key);
    switch (tag) {
      case Tag.Named:
      case Tag.Volatile:
        return this.buffers.namesIn(id)[b] ?? this.bufferName(id, b);
      case Tag.Atomic: {
        const off = Math.floor(b / 4);
        const size = 1 << (b & 3);
        return `Atomics on [${Math.floor(off / size)}] (${bytes(off, size)}) of ${this.bufferName(id, off)}`;
      }
      case Tag.WaiterList:
        return `Atomics.wait/notify on byte ${b} of ${this.bufferName(id, b)}`;
      case Tag.Message:
        return `message #${id * 2 ** 32 + b} (postMessage)`;
      case Tag.Broadcast:
        return `message #${b} (BroadcastChannel)`;
      default:
        return `T${key}`;
    }
  };

  /** Buffer `id` as the program knows it, around byte `off`: the primitive at or before it, else its allocation. */
  private bufferName(id: number, off: number): string {
    const names = this.buffers.namesIn(id);
    let at = -1;
    for (const k of Object.keys(names)) if (Number(k) <= off && Number(k) > at) at = Number(k);
    if (at >= 0) return names[at];
    const a = this.buffers.allocationOf(id);
    return a.location ? `the ${a.kind} created by thread ${a.thread} at ${a.location}` : `sab#${id}`;
  }
}
