/**
 * The program's shared buffers as this thread's runtime knows them: each SharedArrayBuffer object the thread meets
 * gets the id of the memory it is a view of (one id per memory, whatever object of it a thread holds), and each id
 * a word table in the shared heap (a page slot of four ints per 64-byte page, `./shadow/table.ts`), entered in the
 * shared buffer table (`./memory/state.ts`: the address of its first word, words, bytes + 1 per id), and where it was made in the allocation table
 * (the site of the `new SharedArrayBuffer(...)` or `new WebAssembly.Memory(...)` this thread ran, from the rewritten
 * code's `allocated` hook: {@link Buffers.allocated}; shared by id, so a buffer received in a message keeps its
 * maker's site). Shared WebAssembly.Memory objects keep the id of their first buffer across `grow()`
 * ({@link Memories}).
 */
import { threadId } from 'node:worker_threads';
import { SAB } from '../hooks/views.js';
import { warn } from '../node/transform.js';
import type { Allocation } from '../report/race.js';
import { CTL, ensureBytes, lock, MAX_BUFFERS, rawAtomics, type StateViews, unlock } from './memory/state.js';
import { getString, putString } from './memory/strings.js';
import { allocTable } from './shadow/table.js';

/** Bytes of a WebAssembly page (WebAssembly JS API §Memory). */
const WASM_PAGE = 65536;
/**
 * The largest `maximum` (bytes) of a shared WebAssembly.Memory whose word table is sized for it when it is
 * constructed, so that its buffer keeps its id across grows. The table takes a quarter as many bytes as the memory,
 * in the detector's heap of `--shadow-limit` MiB (state.ts), for all buffers of the run: its pages are committed as they
 * are used.
 */
const MEMORY_TABLE_MAX = 256 << 20;

/** The ids and word tables of the shared buffers this thread met. */
export class Buffers {
  /** The id of each SharedArrayBuffer object this thread met. */
  private readonly ids = new WeakMap<SharedArrayBuffer, number>();
  /** The address of the first word of each id's word table (`./shadow/table.ts`), as far as this thread has read it. */
  private readonly bases: number[] = [];
  /** The site (string id) of each SharedArrayBuffer and WebAssembly.Memory this thread made. */
  private readonly made = new WeakMap<object, number>();
  /**
   * The SharedArrayBuffers this thread made since its last send ({@link publish}): private to it (docs/RUNTIME.md
   * "Private buffers"). Empty unless {@link privateUntilSent}.
   */
  private fresh = new WeakSet<SharedArrayBuffer>();
  /** Whether {@link fresh} may hold a buffer (one was made since the last send). */
  private anyFresh = false;
  /**
   * Whether a buffer this thread makes is private until its next send; off in recorded and jumbled runs (they log
   * or choose every access) and under `--detector eraser` (a lockset without happens-before: the creator's accesses
   * before a hand-off count there).
   */
  privateUntilSent = false;
  /** Called by {@link publish} when buffers turned public (the element hooks drop what they cached of them). */
  onPublish: (() => void) | undefined;

  constructor(private readonly s: StateViews) {}

  /** The shadow id of a SharedArrayBuffer, registering it on first sight (a property: passed on as a function). */
  readonly idOf = (buffer: SharedArrayBuffer): number => {
    const id = this.ids.get(buffer);
    return id === undefined ? this.register(buffer) : id;
  };

  /**
   * Notes `x`, the value of a `new SharedArrayBuffer(...)` or `new WebAssembly.Memory(...)`, as made at `site` (a
   * string id); registration enters it in the allocation table. Anything else is ignored.
   */
  allocated(x: unknown, site: number): void {
    if (x instanceof SAB || x instanceof WebAssembly.Memory) this.made.set(x, site);
    // a constructor that returned a buffer met before (a received one) does not make it private
    if (this.privateUntilSent && x instanceof SAB && !this.ids.has(x)) {
      this.fresh.add(x);
      this.anyFresh = true;
    }
  }

  /**
   * Is `buffer` private to this thread: made by it (`new SharedArrayBuffer(...)` in instrumented code, seen by
   * {@link allocated}) since its last send? No other thread can hold a reference to it, so no access of another
   * thread can race with this thread's accesses to it now: every such access is ordered after the send that hands
   * it over (happens-before through the message edge).
   */
  isPrivate(buffer: ArrayBufferLike): boolean {
    return this.anyFresh && this.fresh.has(buffer as SharedArrayBuffer);
  }

  /**
   * Makes every buffer private to this thread public, for good: called at each operation of this thread that could
   * hand a reference to another thread (a send: `postMessage` of a port, worker or BroadcastChannel, `new Worker`,
   * `setEnvironmentData`), before it runs.
   */
  publish(): void {
    if (!this.anyFresh) return;
    this.fresh = new WeakSet();
    this.anyFresh = false;
    this.onPublish?.();
  }

  /**
   * Gives `buffer` a new id and a word table for `bytes` bytes (its length, or the most it can grow to), and
   * enters where it was made (`memory`: the shared WebAssembly.Memory whose buffer it is) in the allocation table.
   * @throws RangeError beyond MAX_BUFFERS buffers.
   */
  register(
    buffer: SharedArrayBuffer,
    bytes = buffer.growable ? buffer.maxByteLength : buffer.byteLength,
    memory?: WebAssembly.Memory,
  ): number {
    const s = this.s;
    const id = rawAtomics.add(s.ctl, CTL.nextBuffer, 1) + 1;
    if (id >= MAX_BUFFERS) throw new RangeError(`goldilocks: more than ${MAX_BUFFERS - 1} shared buffers`);
    const words = Math.max(1, Math.ceil(bytes / 8));
    const base = allocTable(s, words);
    ensureBytes(s.state.buffers, (id + 1) * 12);
    if (3 * id + 2 >= s.buffers.length) s.refresh();
    s.buffers[3 * id] = base;
    s.buffers[3 * id + 1] = words;
    ensureBytes(s.state.allocations, (id + 1) * 16);
    const made = new Int32Array(s.state.allocations, 16 * id, 3);
    made[0] = (this.made.get(memory ?? buffer) ?? -1) + 1;
    made[1] = threadId + 1;
    made[2] = memory === undefined ? 0 : 1;
    rawAtomics.store(s.buffers, 3 * id + 2, bytes + 1);
    this.ids.set(buffer, id);
    this.bases[id] = base;
    return id;
  }

  /** The bytes the word table of buffer `id` covers (any thread's buffer; the atomic load orders its entry's reads). */
  capacityOf(id: number): number {
    const s = this.s;
    if (3 * id + 2 >= s.buffers.length) s.refresh();
    return rawAtomics.load(s.buffers, 3 * id + 2) - 1;
  }

  /**
   * Where buffer `id` (registered by any thread) was made (see {@link Allocation}); its `bytes` are those its word
   * table covers.
   */
  allocationOf(id: number): Allocation {
    const bytes = this.capacityOf(id); // orders the reads of the entry, written before the table's
    const [site, thread, kind] = new Int32Array(this.s.state.allocations, 16 * id, 3);
    return {
      location: site === 0 ? '' : getString(this.s, site - 1),
      thread: `T${thread - 1}`,
      kind: kind === 1 ? 'WebAssembly.Memory' : 'SharedArrayBuffer',
      bytes,
    };
  }

  /**
   * The names of the goldilocks/sync primitives in buffer `id` (registered), by byte offset: `Mutex 'connection'`.
   */
  namesIn(id: number): Record<string, string> {
    this.capacityOf(id);
    const slot = rawAtomics.load(new Int32Array(this.s.state.allocations, 16 * id + 12, 1), 0);
    return slot === 0 ? {} : (JSON.parse(getString(this.s, slot - 1)) as Record<string, string>);
  }

  /** Names the primitive at `byteOffset` of buffer `id` (registered) `name` (see {@link namesIn}). */
  nameAt(id: number, byteOffset: number, name: string): void {
    const s = this.s;
    lock(s, s.ctl, CTL.raceLock); // names are rare: the race lock orders the read-modify-write of the slot
    try {
      const names = this.namesIn(id);
      names[byteOffset] = name;
      const slot = new Int32Array(s.state.allocations, 16 * id + 12, 1);
      rawAtomics.store(slot, 0, putString(s, JSON.stringify(names)) + 1);
    } finally {
      unlock(s.ctl, CTL.raceLock);
    }
  }

  /**
   * The address of the first word of buffer `id`'s word table (`./shadow/table.ts`): its word w is `base + w` (a
   * property: passed on as a function).
   */
  readonly baseOf = (id: number): number => {
    let b = this.bases[id];
    if (b === undefined) {
      this.capacityOf(id);
      b = this.s.buffers[3 * id];
      this.bases[id] = b;
    }
    return b;
  };

  /** Gives the received buffers `sabs` the ids `list` their sender gave them (those not met yet). */
  adopt(sabs: SharedArrayBuffer[], list: number[]): void {
    for (let i = 0; i < sabs.length; i++) if (!this.ids.has(sabs[i])) this.ids.set(sabs[i], list[i]);
  }

  /** The id of `buffer` if this thread met it, else undefined (no registration). */
  known(buffer: SharedArrayBuffer): number | undefined {
    return this.ids.get(buffer);
  }

  /** Gives `buffer` (not met yet) the id `id` of the memory it is a view of. */
  alias(buffer: SharedArrayBuffer, id: number): void {
    this.ids.set(buffer, id);
  }
}

const Memory = WebAssembly.Memory;
const bufferProperty = Object.getOwnPropertyDescriptor(Memory.prototype, 'buffer');
const bufferGetter = bufferProperty?.get;

/** `memory.buffer` without {@link Memories.follow} (for a received memory, before its id is known). */
export const rawBuffer = (memory: WebAssembly.Memory): ArrayBufferLike =>
  bufferGetter === undefined ? memory.buffer : (bufferGetter.call(memory) as ArrayBufferLike);

/**
 * The shared WebAssembly.Memory objects of this thread. After `memory.grow()` a shared memory's `buffer` is a new
 * SharedArrayBuffer object over the same memory, longer (in every thread, once it reads `buffer` again). It keeps the
 * id of the memory's first buffer, so that an access through a view of the new buffer is checked against the
 * accesses before the grow — when that id's word table covers the new length: the table of a shared memory
 * constructed in this thread covers its `maximum` (up to MEMORY_TABLE_MAX bytes), that of one received in a message
 * what its sender's covers. Otherwise (a memory created by a wasm module, or a larger maximum) the grown buffer gets
 * a new id, with a warning: a race between an access before the grow and one after is then missed.
 */
export class Memories {
  /** The id of each memory's first buffer. */
  private readonly ids = new WeakMap<WebAssembly.Memory, number>();
  /** The `maximum` in bytes of the shared memories constructed in this thread (read from their descriptor). */
  private readonly max = new WeakMap<WebAssembly.Memory, number>();
  private warnedGrow = false;

  constructor(private readonly buffers: Buffers) {}

  /** Gives `buffer`, the current buffer of shared `memory`, its id (see the class). */
  follow(memory: WebAssembly.Memory, buffer: SharedArrayBuffer): void {
    const buffers = this.buffers;
    const known = buffers.known(buffer);
    if (known !== undefined) {
      if (!this.ids.has(memory)) this.ids.set(memory, known);
      return;
    }
    const id = this.ids.get(memory);
    if (id !== undefined && buffers.capacityOf(id) >= buffer.byteLength) {
      buffers.alias(buffer, id);
      return;
    }
    if (id !== undefined && !this.warnedGrow) {
      this.warnedGrow = true;
      warn(
        'a shared WebAssembly.Memory grew beyond the length its accesses are tracked for: accesses after the grow ' +
          'are checked as those of a new buffer (a race with an access before it is missed)',
      );
    }
    const max = this.max.get(memory);
    this.ids.set(
      memory,
      max !== undefined && max <= MEMORY_TABLE_MAX
        ? buffers.register(buffer, max, memory)
        : buffers.register(buffer, undefined, memory),
    );
  }

  /** Gives a received shared `memory` the id `id` its sender listed, then follows its buffer. */
  received(memory: WebAssembly.Memory, id: number): void {
    this.ids.set(memory, id);
    this.follow(memory, rawBuffer(memory) as SharedArrayBuffer);
  }

  /** The ids of the buffers of `memories` (in a message: see `./messages.ts`). */
  idsOf(memories: WebAssembly.Memory[]): number[] {
    return memories.map((m) => this.buffers.idOf(m.buffer as unknown as SharedArrayBuffer));
  }

  /**
   * Patches `WebAssembly.Memory`: its `buffer` getter follows a shared memory's buffer ({@link follow}), and the
   * constructor sees the descriptor through a proxy that notes the `maximum` it reads: the user's object is read
   * once, by the constructor, as without the runtime (a getter there runs once; its `this` is the descriptor).
   */
  install(): void {
    const memories = this;
    if (bufferGetter !== undefined) {
      const get = function (this: WebAssembly.Memory) {
        const buffer = bufferGetter.call(this) as ArrayBufferLike;
        if (buffer instanceof SharedArrayBuffer) memories.follow(this, buffer);
        return buffer;
      };
      Object.defineProperty(get, 'name', { value: bufferGetter.name });
      Object.defineProperty(Memory.prototype, 'buffer', { ...bufferProperty, get });
    }
    WebAssembly.Memory = new Proxy(Memory, {
      construct(target, args, newTarget) {
        const d: unknown = args[0];
        if ((typeof d !== 'object' && typeof d !== 'function') || d === null)
          return Reflect.construct(target, args, newTarget);
        let maximum: unknown;
        const seen = new Proxy(d, {
          get(o, key) {
            const value: unknown = Reflect.get(o, key);
            if (key === 'maximum') maximum = value;
            return value;
          },
        });
        const memory = Reflect.construct(target, [seen, ...args.slice(1)], newTarget) as WebAssembly.Memory;
        // a primitive the constructor converted without running user code (an object's valueOf is not run again)
        const pages =
          typeof maximum === 'number' || typeof maximum === 'string' ? Number(maximum) : Number.NaN;
        if (Number.isFinite(pages) && rawBuffer(memory) instanceof SharedArrayBuffer)
          memories.max.set(memory, pages * WASM_PAGE);
        return memory;
      },
    });
  }
}
