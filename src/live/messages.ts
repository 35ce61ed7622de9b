/**
 * Messages between threads as synchronization (happens-before edges) and as carriers of shared memory. A message
 * posted on a Worker, on `parentPort`, on a port of a user `MessageChannel` (also once transferred) or on a
 * `BroadcastChannel` appends a send cell; its delivery (`'message'` listeners, `onmessage`,
 * `receiveMessageOnPort`; to each receiving channel of a broadcast) a receive cell of the same message id. The
 * message travels wrapped ({@link Wrapped}) with its id and the ids of the shared buffers it carries, so the
 * receiver knows which shadow memory a received SharedArrayBuffer object is (a cloned SharedArrayBuffer is a new
 * object). `structuredClone` keeps the ids the same way. A Worker's own `postMessage` is wrapped by `./threads.ts`.
 */
import { createRequire } from 'node:module';
import { SyncKind } from '../model/sync.js';
import type { Buffers, Memories } from './buffers.js';
import { rawBuffer } from './buffers.js';
import type { Callee, Context } from './context.js';
import { noteSend } from './edges.js';
import { type AnyFn, replaceFunction } from './intercept/common.js';
import { appendCell, CTL, rawAtomics, Tag } from './memory/state.js';
import { printErr } from './races.js';
import { packA } from './shadow/goldilocks.js';

const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
const MARK = '__goldilocks$message';

/** A message as it travels between instrumented threads. */
interface Wrapped {
  [MARK]: number;
  /** The `a` word of its send and receive cells (`Tag.Message` or `Tag.Broadcast`). */
  a: number;
  sabs: SharedArrayBuffer[];
  ids: number[];
  /** The ids of the buffers of the shared WebAssembly.Memory objects in `v`, in {@link Messages.collect}'s order. */
  memoryIds: number[];
  v: unknown;
}

/** This thread's message observer: its user ports, and the wrapping and unwrapping of messages. */
export class Messages {
  readonly userPorts = new WeakSet<object>();
  /** Worker constructors running in this thread: their internal messages (before register ran there) pass as they are. */
  spawning = 0;

  constructor(
    private readonly ctx: Context,
    private readonly buffers: Buffers,
    private readonly memories: Memories,
  ) {}

  /**
   * Marks the ports of a received value as user ports, and gives its shared WebAssembly.Memory objects the ids the
   * sender listed (`list`, in {@link collect}'s order: a memory is cloned as a new object whose buffer is a new
   * SharedArrayBuffer object, not among the message's cloned buffers); `Memories.follow` then gives each buffer
   * that id, or a new one if the memory grew past what the id's word table covers.
   */
  received(value: unknown, list: number[] = []): void {
    const memories: WebAssembly.Memory[] = [];
    this.collect(value, undefined, memories);
    for (let i = 0; i < memories.length && i < list.length; i++) this.memories.received(memories[i], list[i]);
  }

  /**
   * Walks a message's value (at most 100k nodes) for shared buffers (into `out`), shared WebAssembly.Memory objects
   * (into `memories`) and ports (marked as user ports).
   */
  collect(value: unknown, out?: SharedArrayBuffer[], memories?: WebAssembly.Memory[]): void {
    if (value === null || typeof value !== 'object') return;
    const seen = new Set<object>();
    const todo: unknown[] = [value];
    while (todo.length && seen.size < 100_000) {
      const v = todo.pop();
      if (v === null || typeof v !== 'object' || seen.has(v)) continue;
      seen.add(v);
      if (v instanceof SharedArrayBuffer) out?.push(v);
      else if (ArrayBuffer.isView(v)) {
        if (v.buffer instanceof SharedArrayBuffer) out?.push(v.buffer);
      } else if (v instanceof WebAssembly.Memory) {
        if (rawBuffer(v) instanceof SharedArrayBuffer) memories?.push(v);
      } else if (v instanceof threads.MessagePort) this.userPorts.add(v);
      else if (v instanceof Map) for (const [k, x] of v) todo.push(k, x);
      else if (v instanceof Set) for (const x of v) todo.push(x);
      else if (Array.isArray(v)) for (const x of v) todo.push(x);
      else for (const x of Object.values(v)) todo.push(x);
    }
  }

  /**
   * Appends the send cell of a message of `value` and wraps it with its id and its buffers' ids; notes its sender
   * and the site of the call of `fn` (the patched `postMessage`) for race reports (`./edges.ts`).
   */
  wrap(value: unknown, fn: Callee, tag: number = Tag.Message): Wrapped {
    const { s, t } = this.ctx;
    const sabs: SharedArrayBuffer[] = [];
    const memories: WebAssembly.Memory[] = [];
    this.collect(value, sabs, memories);
    const list = sabs.map(this.buffers.idOf);
    const m = rawAtomics.add(s.ctl, CTL.nextMessage, 1) + 1;
    noteSend(s, m, t, this.ctx.callerSite(fn));
    const a = packA(tag, 0);
    this.ctx.listLocked(() => appendCell(s, SyncKind.Send, t, a, m));
    return { [MARK]: m, a, sabs, ids: list, memoryIds: this.memories.idsOf(memories), v: value };
  }

  /** The value of a delivered message, after its receive cell (a message not wrapped is returned as it is). */
  unwrap(data: unknown): unknown {
    if (data === null || typeof data !== 'object' || !(MARK in data)) return data;
    const { s, t } = this.ctx;
    const w = data as Wrapped;
    this.buffers.adopt(w.sabs, w.ids);
    this.received(w.v, w.memoryIds);
    this.ctx.listLocked(() => appendCell(s, SyncKind.Receive, t, w.a, w[MARK]));
    return w.v;
  }

  /**
   * Patches `MessagePort` post and delivery, `receiveMessageOnPort`, `MessageChannel` (its ports are user ports),
   * `BroadcastChannel#postMessage` and `structuredClone`.
   */
  install(): void {
    const messages = this;
    const portProto = threads.MessagePort.prototype as unknown as Record<PropertyKey, Callee>;
    const postOriginal = portProto.postMessage;
    const post = function postMessage(this: object, value: unknown, ...rest: unknown[]): unknown {
      messages.buffers.publish(); // any port's message may carry a buffer, wrapped or not
      return postOriginal.call(
        this,
        messages.spawning === 0 && messages.userPorts.has(this) ? messages.wrap(value, post) : value,
        ...rest,
      );
    };
    replaceFunction(portProto, 'postMessage', post as AnyFn);
    const DISPATCH = Symbol.for('nodejs.internal.kHybridDispatch');
    const dispatch = portProto[DISPATCH];
    if (typeof dispatch === 'function') {
      portProto[DISPATCH] = function (this: unknown, value: unknown, type: string, event: unknown) {
        return dispatch.call(this, type === 'message' ? messages.unwrap(value) : value, type, event);
      };
    } else
      printErr(
        'goldilocks: cannot observe message delivery on this Node version; message edges are missing\n',
      );
    const receive = threads.receiveMessageOnPort;
    threads.receiveMessageOnPort = (port) => {
      const r = receive(port);
      if (r) r.message = messages.unwrap(r.message);
      return r;
    };
    const OriginalChannel = threads.MessageChannel;
    class MessageChannel extends OriginalChannel {
      constructor() {
        super();
        messages.userPorts.add(this.port1);
        messages.userPorts.add(this.port2);
      }
    }
    threads.MessageChannel = MessageChannel;
    (globalThis as Record<string, unknown>).MessageChannel = MessageChannel;
    // A BroadcastChannel (the global one is worker_threads') posts on an internal MessagePort, and Node delivers the
    // message to every other channel of that name through that channel's internal port, i.e. through the dispatch
    // above: wrapping at the post gives each receiver a receive cell of the same message id (Tag.Broadcast: a
    // vector-clock peer must keep its clock for every receiver).
    const broadcastProto = threads.BroadcastChannel.prototype as unknown as Record<string, Callee>;
    const broadcast = broadcastProto.postMessage;
    const postBroadcast = function postMessage(this: unknown, ...args: unknown[]): unknown {
      messages.buffers.publish();
      return args.length === 0
        ? broadcast.call(this)
        : broadcast.call(this, messages.wrap(args[0], postBroadcast, Tag.Broadcast));
    };
    replaceFunction(broadcastProto, 'postMessage', postBroadcast as AnyFn);

    // structuredClone of a shared buffer (or of a value holding one) returns a new SharedArrayBuffer object over the
    // same memory (HTML StructuredSerialize): cloned as `{ sabs, v }`, the clones in `sabs` are the very objects in
    // the cloned `v`, and they get the originals' ids, so accesses through either alias are checked as one buffer
    const clone = globalThis.structuredClone;
    const cloneChecked = function structuredClone(value: unknown, ...options: unknown[]): unknown {
      const sabs: SharedArrayBuffer[] = [];
      const memories: WebAssembly.Memory[] = [];
      messages.collect(value, sabs, memories);
      if (sabs.length === 0 && memories.length === 0)
        return Reflect.apply(clone, undefined, [value, ...options]);
      const list = sabs.map(messages.buffers.idOf);
      const memoryIds = messages.memories.idsOf(memories);
      const r = Reflect.apply(clone, undefined, [{ sabs, v: value }, ...options]) as {
        sabs: SharedArrayBuffer[];
        v: unknown;
      };
      messages.buffers.adopt(r.sabs, list);
      messages.received(r.v, memoryIds);
      return r.v;
    };
    replaceFunction(globalThis, 'structuredClone', cloneChecked as AnyFn);
  }
}
