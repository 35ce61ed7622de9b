/**
 * The parser thread of a pipelined read (`pipeline.ts`, which documents the protocol): reads and parses the
 * trace given in `workerData` ({@link ParserData}) and posts its batches, names, progress and result, or the
 * error that stopped it, to the thread that started it: {@link main}, which `startWorker` (`parser-start.ts`) calls.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Symbols } from '../model/symbols.js';
import type { ParserData } from './parser-start.js';
import { BatchShipper, type ParserMessage, sendError } from './pipeline.js';
import { readTrace } from './reader.js';

/**
 * Reads and parses the trace of `workerData` and posts to the starting thread (see the file header); `compiled` is
 * called once the first batch is posted (the parser's functions then compiled: what a code cache of this thread
 * should hold, `../node/code-cache.ts`). Never rejects: an error is posted.
 */
export async function main(compiled: () => void = () => {}): Promise<void> {
  const data = workerData as ParserData;
  const port = parentPort!;
  const symbols = new Symbols();
  symbols.trackChanges();
  const post = (m: ParserMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
  const inFlight = data.inFlight;
  const shipper = new BatchShipper(data.returns);
  let first = true;
  try {
    const result = await readTrace(
      data.path,
      symbols,
      (b) => {
        for (let n = Atomics.load(inFlight, 0); n >= data.maxInFlight; n = Atomics.load(inFlight, 0))
          Atomics.wait(inFlight, 0, n);
        Atomics.add(inFlight, 0, 1);
        const { batch, transfer } = shipper.ship(b);
        post({ type: 'batch', names: symbols.takeChanges(), batch, firstIndex: b.firstIndex }, transfer);
        if (first) {
          first = false;
          compiled();
        }
      },
      {
        format: data.format,
        batchSize: data.batchSize,
        nextBatch: shipper.next,
        onProgress: data.progress ? (read, total) => post({ type: 'progress', read, total }) : undefined,
      },
    );
    post({ type: 'end', names: symbols.takeChanges(), result });
  } catch (e) {
    post({ type: 'error', error: sendError(e) });
  }
}
