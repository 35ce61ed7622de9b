import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { TraceError } from '../model/errors.js';
import type { EventBatch } from '../model/events.js';
import { growAtLeast } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';
import {
  NS_COUNT,
  NS_LOCATION,
  NS_THREAD,
  NS_VARIABLE,
  namespaceTables,
  SECOND_NS,
  TARGET_NS,
} from './binary.js';
import { startWorker } from './parser-start.js';
import {
  internNames,
  landBatch,
  type NameDelta,
  receiveError,
  type SentError,
  type ShippedBatch,
} from './pipeline.js';
import type { ReadOptions, ReadResult } from './reader.js';

/**
 * Split reading of a text trace on several cores: the file is cut at line starts into segments of about
 * {@link SEGMENT_BYTES}; parser threads (node:worker_threads, `split-worker.ts`) take the segments in turn (the
 * next one not taken, from a shared counter) and parse each with {@link readTrace} (its `range`) and their own symbol tables,
 * while the calling thread runs the detectors on the batches in trace order. Where parsing costs more than
 * detecting (on lusearch-t2, parsing is about 80% of a check: docs/BENCHMARKS.md), the parsers share it; one
 * parser thread (`pipeline.ts`) cannot go faster than parsing alone.
 *
 * Ids: each parser thread interns names in its own `Symbols`, and sends with each batch the names it interned
 * since its previous message ({@link NameDelta}). The calling thread interns those names into its `Symbols`
 * when it reaches that batch in trace order, keeps a map from the thread's ids to its own (per namespace), and
 * rewrites the batch's ids and line numbers through it. Names are therefore interned in the order of their first
 * occurrence in the trace, as in one thread: the same ids, events, line numbers, results and errors.
 *
 * What crosses the threads (each message names its segment):
 * - `batch`: the events (buffers transferred; sent back once processed, on the parser thread's `returns` port, as
 *   with one parser thread: `BatchShipper`), preceded by the names new to that parser thread;
 * - `segment`: the end of a segment: its lines (for the line numbers of the following segments) and its skipped
 *   lines;
 * - `error`: the error that stopped the parser thread in that segment (a TraceError with the line in the segment,
 *   which the calling thread turns into the line in the file).
 * Memory stays bounded: a parser thread waits (`Atomics.wait`) before a segment `window` segments or more after the
 * first one the calling thread has not finished, so at most `window` segments of batches are parsed ahead.
 */

/**
 * Bytes per segment (default of `segmentBytes`): at 50–100 MiB/s per parser thread, a tenth of a second. The events
 * of up to `window` segments wait for the detectors, so smaller segments keep peak memory lower (docs/BENCHMARKS.md,
 * "Split reading").
 */
export const SEGMENT_BYTES = 8 << 20;

/** Bytes read from the file at a time by the search for line starts. */
const CHUNK_BYTES = 1 << 20;

/**
 * Parser threads by default: two (with the calling thread's detectors, three threads on a 2-core machine: measured
 * faster than one parser thread, docs/BENCHMARKS.md), or one per core but the calling thread's, at most four.
 */
export function defaultWorkers(): number {
  return Math.max(2, Math.min(availableParallelism() - 1, 4));
}

/** Cells of the control array shared with the parser threads. */
export const NEXT_SEGMENT = 0;
export const SEGMENTS_DONE = 1;

export interface SplitOptions {
  /** Parser threads (default {@link defaultWorkers}). */
  workers?: number;
  /** Bytes per segment, about (default {@link SEGMENT_BYTES}). */
  segmentBytes?: number;
  /** Segments parsed ahead of the detectors at most (default: workers + 1). */
  window?: number;
}

/** What a parser thread is given (`workerData`). */
export interface SplitData {
  path: string;
  format: 'ext' | 'std';
  batchSize: number | undefined;
  /** Byte offsets of the segments' starts, then the file size: segment `s` is `[bounds[s], bounds[s + 1])`. */
  bounds: number[];
  /** {@link NEXT_SEGMENT}: next segment to take; {@link SEGMENTS_DONE}: segments the calling thread finished. */
  control: Int32Array;
  window: number;
  /** Where the calling thread sends back the storage of each batch it has processed, for the next batch. */
  returns: MessagePort;
}

/** A parser thread's messages (see the protocol above). */
export type SplitMessage =
  | { type: 'batch'; segment: number; names: NameDelta; batch: ShippedBatch }
  | { type: 'segment'; segment: number; lines: number; skipped: [string, number][] }
  | { type: 'error'; segment: number; error: SentError };

/**
 * The starts of segments of about `segmentBytes` of the file `fd` of `size` bytes: 0, then for each multiple of
 * `segmentBytes` the start of the first line that begins at or after it (none past the last newline).
 * @returns the starts, strictly increasing, followed by `size`.
 */
export function segmentBounds(fd: number, size: number, segmentBytes: number): number[] {
  const bounds = [0];
  const buf = Buffer.allocUnsafe(CHUNK_BYTES);
  let from = segmentBytes;
  while (from < size) {
    // The first newline at or after from - 1: the line after it starts at or after `from`.
    let at = from - 1;
    let start = -1;
    while (at < size && start < 0) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK_BYTES, size - at), at);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      if (nl >= 0) start = at + nl + 1;
      else at += n;
    }
    if (start < 0 || start >= size) break;
    bounds.push(start);
    from = Math.max(start, from) + segmentBytes;
  }
  bounds.push(size);
  return bounds;
}

/**
 * The ids of one parser thread's names in the calling thread's `Symbols`: per namespace (namespaceTables order),
 * `ids[ns][local]` is the calling thread's id of the parser thread's id `local`.
 */
class IdMap {
  readonly ids: Int32Array[];
  private readonly size: Int32Array;

  /** Both tables start with the names a new `Symbols` holds (the empty location), under the same ids. */
  constructor(symbols: Symbols) {
    const tables = namespaceTables(symbols);
    this.size = Int32Array.from(tables, (t) => t.size);
    this.ids = tables.map((t) => {
      const a = new Int32Array(Math.max(64, t.size));
      for (let i = 0; i < t.size; i++) a[i] = i;
      return a;
    });
  }

  /** Interns the names of `delta` into `symbols` and maps the parser thread's ids of them. */
  add(symbols: Symbols, delta: NameDelta): void {
    for (let ns = 0; ns < NS_COUNT; ns++) {
      const need = this.size[ns] + delta.counts[ns];
      if (need > this.ids[ns].length) this.ids[ns] = growAtLeast(this.ids[ns], need);
    }
    internNames(symbols, delta, (ns, k, id) => {
      this.ids[ns][this.size[ns] + k] = id;
    });
    for (let ns = 0; ns < NS_COUNT; ns++) this.size[ns] += delta.counts[ns];
  }

  /**
   * Rewrites the parser thread's ids in `batch` to the calling thread's (target by TARGET_NS of the kind, value by
   * SECOND_NS, the variables of commit sets) and adds `lineBase` to its line numbers.
   */
  rewrite(batch: EventBatch, lineBase: number): void {
    const byNs = this.ids;
    const threads = byNs[NS_THREAD];
    const locations = byNs[NS_LOCATION];
    const variables = byNs[NS_VARIABLE];
    const { kind, thread, target, loc, value, line } = batch;
    for (let i = 0; i < batch.length; i++) {
      const k = kind[i];
      thread[i] = threads[thread[i]];
      loc[i] = locations[loc[i]];
      line[i] += lineBase;
      const ns = TARGET_NS[k]; // -1: a commit, whose target is an offset into its pool
      if (ns >= 0 && target[i] >= 0) target[i] = byNs[ns][target[i]];
      if (value[i] >= 0) value[i] = byNs[SECOND_NS[k]][value[i]];
    }
    const pool = batch.commitPool;
    for (let p = 0; p < batch.commitPoolLength; ) {
      const end = p + 2 + pool[p] + pool[p + 1];
      for (let j = p + 2; j < end; j++) pool[j] = variables[pool[j]];
      p = end;
    }
  }
}

/**
 * As {@link readTrace} for a text trace file in the extended or STD format, parsed by `workers` parser threads
 * (see above): the same batches (events, ids, line numbers; batch boundaries may differ), result and errors. Progress
 * is reported after each segment. `onBatch` may throw: the parser threads are stopped and the promise rejects with
 * that error.
 * @param format the file's format (not detected here: the caller knows it is text, not gzip'd).
 * @throws (rejects) TraceError on a malformed line; Error with code ENOENT etc. when the file cannot be read.
 */
export function readTraceSplit(
  path: string,
  format: 'ext' | 'std',
  symbols: Symbols,
  onBatch: (batch: EventBatch) => void,
  options: ReadOptions = {},
  split: SplitOptions = {},
): Promise<ReadResult> {
  let bounds: number[];
  try {
    const size = statSync(path).size; // first, as readTrace: the same error for a missing file
    const fd = openSync(path, 'r');
    try {
      bounds = segmentBounds(fd, size, split.segmentBytes ?? SEGMENT_BYTES);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return Promise.reject(e);
  }
  const segments = bounds.length - 1;
  const size = bounds[segments];
  const count = Math.max(1, Math.min(split.workers ?? defaultWorkers(), segments));
  const control = new Int32Array(new SharedArrayBuffer(8));
  const workers: Worker[] = [];
  const returns: MessagePort[] = [];
  const maps: IdMap[] = [];
  for (let w = 0; w < count; w++) {
    const { port1, port2 } = new MessageChannel();
    const data: SplitData = {
      path,
      format,
      batchSize: options.batchSize,
      bounds,
      control,
      window: split.window ?? count + 1,
      returns: port2,
    };
    workers.push(startWorker('split-worker', data, { transferList: [port2] }));
    returns.push(port1);
    maps.push(new IdMap(symbols));
  }
  /** Messages not yet handled, per segment, with the index of the worker that sent them. */
  const pending: { w: number; m: SplitMessage }[][] = Array.from({ length: segments }, () => []);
  const skipped = new Map<string, number>();
  let current = 0;
  let taken = 0;
  let events = 0;
  let lineBase = 0;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (error: unknown, result?: ReadResult): void => {
      if (done) return;
      done = true;
      for (const worker of workers) void worker.terminate();
      for (const port of returns) port.close();
      if (result === undefined) reject(error);
      else resolve(result);
    };
    /** Handles the messages of the current segment, in order, as far as they have come. */
    const drain = (): void => {
      while (current < segments) {
        const queue = pending[current];
        if (taken === queue.length) return;
        const { w, m } = queue[taken++];
        if (m.type === 'batch') {
          maps[w].add(symbols, m.names);
          const batch = landBatch(m.batch, events);
          maps[w].rewrite(batch, lineBase);
          events += batch.length;
          onBatch(batch);
          returns[w].postMessage(m.batch.storage, [m.batch.storage]);
        } else if (m.type === 'segment') {
          lineBase += m.lines;
          for (const [reason, n] of m.skipped) skipped.set(reason, (skipped.get(reason) ?? 0) + n);
          pending[current] = [];
          current++;
          taken = 0;
          Atomics.store(control, SEGMENTS_DONE, current);
          Atomics.notify(control, SEGMENTS_DONE);
          options.onProgress?.(bounds[current], size);
        } else {
          const e = receiveError(m.error);
          throw e instanceof TraceError && e.line > 0
            ? new TraceError(e.file, e.line + lineBase, e.column, e.text, e.expected, e.kind, e.offset)
            : e;
        }
      }
      finish(undefined, { format, events, lines: lineBase, gzip: false, skipped });
    };
    workers.forEach((worker, w) => {
      worker.on('message', (m: SplitMessage) => {
        if (done) return;
        pending[m.segment].push({ w, m });
        try {
          drain();
        } catch (e) {
          finish(e);
        }
      });
      worker.on('error', (e) => finish(e));
      worker.on('exit', (code) => {
        if (code !== 0) finish(new Error(`a parser thread exited (code ${code}) before the end`));
      });
    });
  });
}
