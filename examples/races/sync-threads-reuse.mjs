// The real race of sync-threads 1.0.1 (lambci/sync-threads, src/index.js), its pattern written out: createSyncFn
// makes one SharedArrayBuffer per function and, per call, starts a worker and waits with
// `Atomics.wait(semaphore, 0, 0)` for the worker's `Atomics.store(semaphore, 0, length)`, then reads the length
// (plainly) and deserializes the result from the buffer. Nothing ever resets word 0: on the second call of the
// same function, `Atomics.wait` returns 'not-equal' at once, and the caller reads the length and the bytes while
// the new worker writes them (a plain read racing with an `Atomics.store`, and reads racing with `Buffer#copy`).
// It returns the first call's result.
//   node examples/races/sync-threads-reuse.mjs                  → throws: square(4) returned 9
//   goldilocks run --on-race=report examples/races/sync-threads-reuse.mjs   → the races, then the same error
// The fix: reset the word before each call (`Atomics.store(semaphore, 0, 0)` before starting the worker), or
// give each call its own buffer.
import v8 from 'node:v8';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const INT32_BYTES = 4;
/** The workers started (not in the package: here so that the program goes on until they are done). */
const started = [];

/** sync-threads' createSyncFn, as published. */
function createSyncFn(filename, bufferSize = 64 * 1024) {
  const sharedBuffer = new SharedArrayBuffer(bufferSize);
  const semaphore = new Int32Array(sharedBuffer);
  return (inputData = {}) => {
    const worker = new Worker(filename, { workerData: { inputData, sharedBuffer } });
    started.push(new Promise((resolve) => worker.on('exit', resolve)));
    worker.on('error', (e) => {
      throw e;
    });
    Atomics.wait(semaphore, 0, 0);
    let length = semaphore[0]; // the racy read: on a second call, the first call's length
    let didThrow = false;
    if (length < 0) {
      didThrow = true;
      length *= -1;
    }
    const data = v8.deserialize(Buffer.from(sharedBuffer, INT32_BYTES, length));
    if (didThrow) throw data;
    return data;
  };
}

/** sync-threads' runAsWorker and notifyParent, as published. */
async function runAsWorker(workerAsyncFn) {
  const { inputData, sharedBuffer } = workerData;
  let data;
  let didThrow = false;
  try {
    data = await workerAsyncFn(inputData);
  } catch (e) {
    data = e;
    didThrow = true;
  }
  const buf = v8.serialize(data);
  buf.copy(Buffer.from(sharedBuffer), INT32_BYTES);
  const semaphore = new Int32Array(sharedBuffer);
  Atomics.store(semaphore, 0, didThrow ? -buf.length : buf.length);
  Atomics.notify(semaphore, 0);
}

if (isMainThread) {
  const square = createSyncFn(new URL(import.meta.url));
  const first = square({ n: 3 });
  const second = square({ n: 4 });
  await Promise.all(started); // the program goes on while the second worker writes its result
  console.log(`square(3) = ${first}, square(4) = ${second}`);
  if (second !== 16) throw new Error(`square(4) returned ${second}`);
} else {
  runAsWorker(async ({ n }) => n * n);
}
