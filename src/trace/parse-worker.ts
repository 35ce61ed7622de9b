/**
 * The parser thread of a pipelined read (`pipeline.ts`, which documents the protocol): reads and parses the
 * trace given in `workerData` ({@link ParserData}) and posts its batches, names, progress and result, or the
 * error that stopped it, to the thread that started it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Symbols } from '../model/symbols.js';
import { BatchShipper, type ParserData, type ParserMessage, sendError } from './pipeline.js';
import { readTrace } from './reader.js';

const data = workerData as ParserData;
const port = parentPort!;
const symbols = new Symbols();
symbols.trackChanges();
const post = (m: ParserMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
const inFlight = data.inFlight;
const shipper = new BatchShipper(data.returns);

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
