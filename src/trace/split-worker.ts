/**
 * A parser thread of a split read (`split.ts`, which documents the protocol): takes the segments of the file given
 * in `workerData` ({@link SplitData}) one at a time, parses each with its own symbol tables, and posts its batches
 * (with the names new to this thread), its end, or the error that stopped it, to the thread that started it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Symbols } from '../model/symbols.js';
import { BatchShipper, NameShipper, sendError } from './pipeline.js';
import { readTrace } from './reader.js';
import { NEXT_SEGMENT, SEGMENTS_DONE, type SplitData, type SplitMessage } from './split.js';

const data = workerData as SplitData;
const port = parentPort!;
const symbols = new Symbols();
const names = new NameShipper(symbols);
const { control, bounds, window } = data;
const segments = bounds.length - 1;
const post = (m: SplitMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
const shipper = new BatchShipper(data.returns);

/** Parses segment `s` and posts its batches and its end. @throws what the reading or the parser throws. */
async function parseSegment(s: number): Promise<void> {
  const r = await readTrace(
    data.path,
    symbols,
    (b) => {
      const { batch, transfer } = shipper.ship(b);
      post({ type: 'batch', segment: s, names: names.take(), batch }, transfer);
    },
    {
      format: data.format,
      batchSize: data.batchSize,
      nextBatch: shipper.next,
      range: { start: bounds[s], end: bounds[s + 1] },
    },
  );
  shipper.reclaim(); // the last batch of the segment's feeder, left empty
  post({ type: 'segment', segment: s, lines: r.lines, skipped: [...r.skipped] });
}

/**
 * Takes and parses segments until none is left (see the file header), which `startWorker` (`parser-start.ts`) calls;
 * `compiled` is called after each segment (the parser's functions then compiled: what a code cache of this thread
 * should hold, `../node/code-cache.ts`). Never rejects: an error is posted.
 */
export async function main(compiled: () => void = () => {}): Promise<void> {
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
      await parseSegment(s);
      compiled();
    } catch (e) {
      post({ type: 'error', segment: s, error: sendError(e) });
      break;
    }
  }
}
