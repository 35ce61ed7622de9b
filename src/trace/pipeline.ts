import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { TraceError } from '../model/errors.js';
import { ALLOC, EventBatch } from '../model/events.js';
import type { Symbols, SymbolsChanges } from '../model/symbols.js';
import { namespaceTables } from './binary.js';
import { MAX_IN_FLIGHT, type ParserThreadOptions, StartedParser, type WorkerEvent } from './parser-start.js';
import type { ReadOptions, ReadResult } from './reader.js';

/**
 * Pipelined reading of a trace on two cores: a worker thread (node:worker_threads, `parse-worker.ts`) reads
 * and parses the input with {@link readTrace} and its own symbol tables, and hands each batch of events to the
 * calling thread, which runs the detectors on it meanwhile. A check then takes about max(parse, detect)
 * instead of their sum.
 *
 * What crosses the threads, in input order, on the worker's message port:
 * - `batch`: the events ({@link ShippedBatch}: the batch's own buffer, transferred, not copied; the calling thread
 *   sends it back once processed, see {@link BatchShipper}), preceded by the changes of the worker's symbol tables since the
 *   previous message (`Symbols.takeChanges`: the new names, their slots in the hash tables, the variable count at each
 *   new alloc name), which the calling thread's `Symbols` copy (`applyChanges`: no name hashed or compared there), so
 *   that they give every name the id the worker gave it before any event uses it; the worker describes no variable
 *   and interns no object: the calling thread turns its `alloc` targets (alloc names) into object ids
 *   ({@link resolveAllocs}) and describes variables where it uses them (`Symbols.describeUpTo`);
 * - `progress`: bytes read, after each input chunk (the `onProgress` of {@link ReadOptions});
 * - `end`: the {@link ReadResult} (and the last names); `error`: the error that stopped the worker.
 * The batches sent and not yet processed are counted in a SharedArrayBuffer cell; the worker waits
 * (`Atomics.wait`) while there are `maxInFlight` of them: memory stays bounded by that many batches.
 */

/**
 * Names new in the symbol tables since the last delta (what a split read's parser thread sends, `split.ts`), per namespace in `namespaceTables` order: `counts[ns]`
 * names, the UTF-8 bytes of all of them concatenated in `bytes`, their byte lengths in `lengths`.
 */
export interface NameDelta {
  counts: Int32Array;
  lengths: Int32Array;
  bytes: Uint8Array;
}

/** The worker's side of {@link NameDelta}: what it has interned beyond what it already sent. */
export class NameShipper {
  private readonly sent: Int32Array;

  constructor(private readonly symbols: Symbols) {
    this.sent = Int32Array.from(namespaceTables(symbols), (t) => t.size);
  }

  /**
   * The names interned since the last call (or since construction: a new `Symbols` has some already), every variable
   * described first (`Symbols.describeUpTo`), so that the objects are those of describing each variable as it is
   * interned, in that order ({@link internNames} interns them first).
   */
  take(): NameDelta {
    this.symbols.describeUpTo(this.symbols.variables.size);
    const tables = namespaceTables(this.symbols);
    const counts = new Int32Array(tables.length);
    let names = 0;
    let bytes = 0;
    for (let ns = 0; ns < tables.length; ns++) {
      counts[ns] = tables[ns].size - this.sent[ns];
      names += counts[ns];
      for (let id = this.sent[ns]; id < tables[ns].size; id++) bytes += tables[ns].bytes(id).length;
    }
    const delta: NameDelta = { counts, lengths: new Int32Array(names), bytes: new Uint8Array(bytes) };
    let k = 0;
    let at = 0;
    for (let ns = 0; ns < tables.length; ns++) {
      for (let id = this.sent[ns]; id < tables[ns].size; id++) {
        const b = tables[ns].bytes(id);
        delta.bytes.set(b, at);
        delta.lengths[k++] = b.length;
        at += b.length;
      }
      this.sent[ns] = tables[ns].size;
    }
    return delta;
  }
}

/** A batch as it crosses to the calling thread: its storage (transferred), capacity, events and commit sets. */
export interface ShippedBatch {
  storage: ArrayBuffer;
  capacity: number;
  length: number;
  commitPool: Int32Array;
}

/**
 * Capacity of a parser thread's first batch; each next one doubles, up to the reader's batch size: the calling thread
 * starts its detectors once a small batch is parsed rather than a full one (in code not yet optimized: about 0.1 s
 * for 32,768 lines of the 2M-event realistic trace), and the two threads warm up at the same time (issue 24 §3).
 */
export const FIRST_BATCH = 1024;

/**
 * A parser thread's side of handing batches over: each batch is filled over storage the calling thread sent back on
 * `returns` once its detectors were done with it (new storage only when none is back), so that memory is reused
 * instead of waiting for garbage collection. {@link next} is the feeder's `ReadOptions.nextBatch`.
 */
export class BatchShipper {
  private readonly free: ArrayBuffer[] = [];
  /** The batch {@link next} gave last: the one being filled (a feeder posts a batch, then asks for the next). */
  private filling: EventBatch | undefined;

  /** The capacity of the next batch, below the reader's at first ({@link FIRST_BATCH}). */
  private ramp = FIRST_BATCH;

  constructor(private readonly returns: MessagePort) {}

  /**
   * A batch of `capacity` events (the first ones smaller: {@link FIRST_BATCH}) over storage sent back, or a new one.
   */
  readonly next = (capacity: number): EventBatch => {
    for (let m = receiveMessageOnPort(this.returns); m !== undefined; m = receiveMessageOnPort(this.returns))
      this.free.push(m.message as ArrayBuffer);
    const c = Math.min(capacity, this.ramp);
    this.ramp = 2 * c;
    let storage = this.free.pop();
    // the smaller batches' storage is left to the garbage collector
    while (storage !== undefined && storage.byteLength !== c * EventBatch.BYTES_PER_EVENT)
      storage = this.free.pop();
    this.filling = new EventBatch(c, storage);
    return this.filling;
  };

  /** `b` as a message, and the buffers to transfer with it (`b`'s storage is the calling thread's from then on). */
  ship(b: EventBatch): { batch: ShippedBatch; transfer: ArrayBuffer[] } {
    const commitPool = b.commitPool.slice(0, b.commitPoolLength);
    return {
      batch: { storage: b.storage, capacity: b.capacity, length: b.length, commitPool },
      transfer: [b.storage, commitPool.buffer as ArrayBuffer],
    };
  }

  /** Takes back the storage of the batch being filled, when its feeder is done and left it empty. */
  reclaim(): void {
    if (this.filling !== undefined) this.free.push(this.filling.storage);
    this.filling = undefined;
  }
}

/**
 * Turns the targets of `batch`'s `alloc` events, a parser thread's alloc names (`Symbols.allocNames`, copied into
 * `symbols` with the batch's changes), into object ids: the ids of describing each variable as it is interned
 * (`Symbols.resolveAllocNames`). A batch of a trace without `alloc` is not scanned. @returns `batch`.
 */
export function resolveAllocs(symbols: Symbols, batch: EventBatch): EventBatch {
  if (symbols.allocNames.size === 0) return batch;
  const ids = symbols.resolveAllocNames();
  const { kind, target } = batch;
  for (let i = 0; i < batch.length; i++) if (kind[i] === ALLOC) target[i] = ids[target[i]];
  return batch;
}

/** The calling thread's side: the batch of `m`, whose first event has trace index `firstIndex`. */
export function landBatch(m: ShippedBatch, firstIndex: number): EventBatch {
  const batch = new EventBatch(m.capacity, m.storage);
  batch.length = m.length;
  batch.firstIndex = firstIndex;
  batch.commitPool = m.commitPool;
  batch.commitPoolLength = m.commitPool.length;
  return batch;
}

/**
 * Interns the names of `delta` into `symbols` in the order they were interned where `delta` was taken: objects
 * first (the objects of its variables, described where the delta was taken, and of its `alloc`s, in the order of their
 * first naming there), so that describing the variables here (`Symbols.describeUpTo`) interns no object.
 * Calls `onName(ns, k, id)` for the `k`-th name of namespace `ns` (namespaceTables order) in the delta, with the
 * id it has in `symbols` (new, or the one it had if `symbols` held it already).
 */
export function internNames(
  symbols: Symbols,
  delta: NameDelta,
  onName: (ns: number, k: number, id: number) => void,
): void {
  const tables = namespaceTables(symbols);
  const start = new Int32Array(tables.length + 1);
  const offset = new Float64Array(tables.length + 1);
  for (let ns = 0; ns < tables.length; ns++) {
    start[ns + 1] = start[ns] + delta.counts[ns];
    let o = offset[ns];
    for (let k = start[ns]; k < start[ns + 1]; k++) o += delta.lengths[k];
    offset[ns + 1] = o;
  }
  const objects = tables.indexOf(symbols.objects);
  const order = [objects, ...tables.map((_, ns) => ns).filter((ns) => ns !== objects)];
  for (const ns of order) {
    const table = tables[ns];
    let at = offset[ns];
    for (let k = start[ns]; k < start[ns + 1]; k++) {
      const end = at + delta.lengths[k];
      const id =
        table === symbols.variables
          ? symbols.variable(delta.bytes, at, end)
          : table.internBytes(delta.bytes, at, end);
      onName(ns, k - start[ns], id);
      at = end;
    }
  }
}

/** An error as it crosses the threads: a TraceError's fields, or another error's name, message, code, stack. */
export type SentError =
  | { trace: ConstructorParameters<typeof TraceError> }
  | { name: string; message: string; code?: string; stack?: string };

export function sendError(e: unknown): SentError {
  if (e instanceof TraceError)
    return { trace: [e.file, e.line, e.column, e.text, e.expected, e.kind, e.offset] };
  const err: Error & { code?: unknown } = e instanceof Error ? e : new Error(String(e));
  return {
    name: err.name,
    message: err.message,
    code: typeof err.code === 'string' ? err.code : undefined,
    stack: err.stack,
  };
}

export function receiveError(s: SentError): Error {
  if ('trace' in s) return new TraceError(...s.trace);
  const e = new Error(s.message) as Error & { code?: string };
  e.name = s.name;
  if (s.code !== undefined) e.code = s.code;
  if (s.stack !== undefined) e.stack = s.stack;
  return e;
}

/** The worker's messages (see the protocol above). */
export type ParserMessage =
  | { type: 'batch'; names: SymbolsChanges | undefined; batch: ShippedBatch; firstIndex: number }
  | { type: 'progress'; read: number; total: number }
  | { type: 'end'; names: SymbolsChanges | undefined; result: ReadResult }
  | { type: 'error'; error: SentError };

/**
 * As {@link readTrace}, with the parsing in a worker thread (see above): same batches (the calling thread's
 * `symbols` interned as `readTrace` would), same result, same errors (a TraceError is rebuilt with the same
 * fields; other errors keep message and `code`), progress reported after the batches of each chunk. With
 * `-`, the calling thread pipes its stdin to the worker. `onBatch` may throw: the worker is stopped and the
 * promise rejects with that error.
 * @param maxInFlight batches parsed ahead of the detectors at most (memory: that many batches).
 */
export function readTracePipelined(
  path: string,
  symbols: Symbols,
  onBatch: (batch: EventBatch) => void,
  options: ReadOptions = {},
  maxInFlight = MAX_IN_FLIGHT,
): Promise<ReadResult> {
  const { format, batchSize, onProgress } = options;
  return new ParserThread(path, { format, batchSize, progress: onProgress !== undefined }, maxInFlight).read(
    symbols,
    onBatch,
    onProgress,
  );
}

/** The parser thread {@link ParserThread.adopt} was given, and the file it reads. */
let prestarted: { path: string; thread: ParserThread } | undefined;

/**
 * A parser thread reading `path` (see above), started at construction (`StartedParser`, `./parser-start.ts`), so that
 * its start-up (about 0.1 s: a Node thread, its modules, the parser's first batch in unoptimized code) overlaps the
 * calling thread's own work until it calls {@link read}, which takes its batches from the first; or {@link stop},
 * which ends it unread (issue 24 §3: `checkFile` starts it while it finds out whether a core is free). What it sends
 * before `read` waits in a queue, bounded as the batches in flight are.
 */
export class ParserThread {
  private readonly started: StartedParser;

  /**
   * @param path the trace (`-`: this thread's stdin); or a thread already started (by the executable, as it starts:
   *   cli/prestart.ts), whose path and options are its own.
   */
  constructor(path: string | StartedParser, options: ParserThreadOptions = {}, maxInFlight = MAX_IN_FLIGHT) {
    this.started = typeof path === 'string' ? new StartedParser(path, options, maxInFlight) : path;
  }

  /**
   * The trace's batches, in order, to `onBatch` over `symbols` (which must be as a new `Symbols`: the parser
   * thread's tables are copied into it), as {@link readTracePipelined} says; then stops the thread.
   */
  read(
    symbols: Symbols,
    onBatch: (batch: EventBatch) => void,
    onProgress?: ReadOptions['onProgress'],
  ): Promise<ReadResult> {
    const { inFlight, returns } = this.started;
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (error: unknown, result?: ReadResult): void => {
        if (done) return;
        done = true;
        this.stop();
        if (result === undefined) reject(error);
        else resolve(result);
      };
      this.started.listen((e: WorkerEvent) => {
        if (done) return;
        if ('failed' in e) return finish(e.failed);
        const m = e.message as ParserMessage;
        try {
          switch (m.type) {
            case 'batch': {
              symbols.applyChanges(m.names);
              onBatch(resolveAllocs(symbols, landBatch(m.batch, m.firstIndex)));
              returns.postMessage(m.batch.storage, [m.batch.storage]);
              Atomics.sub(inFlight, 0, 1);
              Atomics.notify(inFlight, 0);
              break;
            }
            case 'progress':
              onProgress?.(m.read, m.total);
              break;
            case 'end':
              symbols.applyChanges(m.names);
              symbols.resolveAllocNames(); // objects a binary trace defines after its last event, as in one thread
              finish(undefined, m.result);
              break;
            case 'error':
              finish(receiveError(m.error));
              break;
          }
        } catch (e) {
          finish(e);
        }
      });
    });
  }

  /**
   * Takes `started`, a parser thread started as the executable started (cli/prestart.ts: reading its file in the
   * format found in it, reporting progress), for {@link take}; a thread adopted before and not taken is stopped.
   */
  static adopt(started: StartedParser): void {
    ParserThread.drop();
    prestarted = { path: started.path, thread: new ParserThread(started) };
  }

  /**
   * The thread {@link adopt} was given for `path` if it reads it as asked (`format` found in the file), or undefined;
   * either way none is left prestarted (one started for another file is stopped).
   */
  static take(path: string, format: ReadOptions['format']): ParserThread | undefined {
    const p = prestarted;
    prestarted = undefined;
    if (p !== undefined && p.path === path && (format === undefined || format === 'auto')) return p.thread;
    p?.thread.stop();
    return undefined;
  }

  /** Stops the thread {@link adopt} was given, if it was not taken. */
  static drop(): void {
    prestarted?.thread.stop();
    prestarted = undefined;
  }

  /** Ends the thread (and the piping of stdin to it); what it sent and was not read is dropped. */
  stop(): void {
    this.started.stop();
  }
}
