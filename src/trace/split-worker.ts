/**
 * A parser thread of a split read (`split.ts`, which documents the protocol): takes the segments of the file given
 * in `workerData` ({@link SplitData}) one at a time, parses each with its own symbol tables, and posts its batches
 * (with the names new to this thread), its end, or the error that stopped it, to the thread that started it.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { Symbols } from '../model/symbols.js';
import { BatchShipper, NameShipper, sendError } from './pipeline.js';
import { TraceFeeder } from './reader.js';
import { NEXT_SEGMENT, SEGMENTS_DONE, type SplitData, type SplitMessage } from './split.js';

/** Bytes read at a time. */
const CHUNK_BYTES = 1 << 20;
/** Input buffer: a partial line, then a chunk (grown for a line longer than a chunk). */
let buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);

const data = workerData as SplitData;
const port = parentPort!;
const symbols = new Symbols();
const names = new NameShipper(symbols);
const { control, bounds, window } = data;
const segments = bounds.length - 1;
const post = (m: SplitMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
const shipper = new BatchShipper(data.returns);

/** Parses segment `s` and posts its batches and its end. @throws what the reading or the parser throws. */
function parseSegment(fd: number, s: number): void {
  const feeder = new TraceFeeder(
    symbols,
    data.path,
    (b) => {
      const { batch, transfer } = shipper.ship(b);
      post({ type: 'batch', segment: s, names: names.take(), batch }, transfer);
    },
    { format: data.format, batchSize: data.batchSize, nextBatch: shipper.next },
  );
  // The unparsed rest of a chunk (a partial line) moves to the buffer's start; the next chunk is read after it.
  let rest = 0;
  for (let at = bounds[s]; at < bounds[s + 1]; ) {
    if (buffer.length - rest < CHUNK_BYTES) {
      const b = Buffer.allocUnsafe(2 * buffer.length);
      buffer.copy(b, 0, 0, rest);
      buffer = b;
    }
    const n = readSync(fd, buffer, rest, Math.min(CHUNK_BYTES, bounds[s + 1] - at), at);
    if (n === 0)
      throw new Error(`${data.path}: the file ended at byte ${at}, before its size when the check began`);
    at += n;
    const left = feeder.feed(buffer.subarray(0, rest + n), false);
    rest = left.length;
    left.copy(buffer, 0);
  }
  const { skipped } = feeder.end(buffer.subarray(0, rest));
  shipper.reclaim(); // the feeder's last batch, left empty
  post({ type: 'segment', segment: s, lines: feeder.lines, skipped: [...skipped] });
}

const fd = openSync(data.path, 'r');
try {
  for (
    let s = Atomics.add(control, NEXT_SEGMENT, 1);
    s < segments;
    s = Atomics.add(control, NEXT_SEGMENT, 1)
  ) {
    for (
      let d = Atomics.load(control, SEGMENTS_DONE);
      s >= d + window;
      d = Atomics.load(control, SEGMENTS_DONE)
    )
      Atomics.wait(control, SEGMENTS_DONE, d);
    try {
      parseSegment(fd, s);
    } catch (e) {
      post({ type: 'error', segment: s, error: sendError(e) });
      break;
    }
  }
} finally {
  closeSync(fd);
}
