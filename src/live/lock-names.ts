/**
 * The lockset of a race in the program's words (issue 25 §1): each lockset key of the live checker
 * (`Shadow.keyName`, `./shadow/goldilocks.ts`) named as the program knows it — `Mutex 'connection'` for a
 * goldilocks/sync primitive (named by the sync observer, `./sync-observer.ts`, in the buffer's allocation entry,
 * `./buffers.ts`), `Atomics on [1] (bytes 4–7) of <buffer>` for an atomic location, a message by its sender and
 * the site of its `postMessage` call (`postMessage from T0 at /app/main.mjs:12:5`, `./edges.ts`; `message #12
 * (postMessage)` past the messages noted), `T0` for the main thread and a worker with the `new Worker(...)` that
 * started it and handed it its `workerData` (`T1 (Worker started by T0 at /app/main.mjs:9:3)`). A buffer is named
 * by the primitive at or before the offset, else by where it was made.
 */
import type { SyncKind, SyncRef } from '../sync/observer.js';
import type { Buffers } from './buffers.js';
import { sendOf, spawnOf } from './edges.js';
import { rawAtomics, type StateViews, Tag } from './memory/state.js';
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

  constructor(
    private readonly buffers: Buffers,
    private readonly s: StateViews,
  ) {}

  /** Names the primitive of `ref` (in buffer `id`) once per thread: `Mutex 'connection'`. */
  note(ref: SyncRef, id: number): void {
    const key = `${id}+${ref.byteOffset}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.buffers.nameAt(id, ref.byteOffset, `${CLASSES[ref.kind]} '${ref.name}'`);
  }

  /** Lockset key `key` in the program's words (see the file header). A property: passed on as a function. */
  readonly nameOf = (key: number): string => {
    if (key < 2 ** 32) return this.threadName(key);
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
        return this.messageName(id * 2 ** 32 + b, 'postMessage');
      case Tag.Broadcast:
        return this.messageName(b, 'BroadcastChannel postMessage');
      default:
        return `T${key}`;
    }
  };

  /** Message `m` sent by `how`: by its sender and call site when noted (`./edges.ts`), else by its number. */
  private messageName(m: number, how: string): string {
    const origin = sendOf(this.s, m);
    return origin ? `${how} from ${origin.thread} at ${origin.site}` : `message #${m} (${how})`;
  }

  /** Thread `t`: a worker with the `new Worker(...)` that started it (`./edges.ts`). */
  private threadName(t: number): string {
    const site = spawnOf(this.s, t);
    if (site === undefined) return `T${t}`;
    const parents = this.s.state.parents;
    const parent =
      4 * (t + 1) <= parents.byteLength ? rawAtomics.load(new Int32Array(parents, 4 * t, 1), 0) : 0;
    return `T${t} (Worker started by ${parent > 0 ? `T${parent - 1}` : 'its parent'} at ${site})`;
  }

  /** Buffer `id` as the program knows it, around byte `off`: the primitive at or before it, else its allocation. */
  private bufferName(id: number, off: number): string {
    const names = this.buffers.namesIn(id);
    let at = -1;
    for (const k of Object.keys(names)) if (Number(k) <= off && Number(k) > at) at = Number(k);
    if (at >= 0) return names[at];
    const a = this.buffers.allocationOf(id);
    return a.location
      ? `the ${a.kind} created by thread ${a.thread} at ${a.location}`
      : `sab#${id} (a ${a.kind} created outside instrumented code)`;
  }
}
