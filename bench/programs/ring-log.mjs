// A log transport over a ring of shared memory, written as a user would write it without this project in mind (the
// pattern of thread-stream, pino's transport): the main thread encodes each record (`Buffer.from` of a string) and
// copies it into a ring of a `SharedArrayBuffer` with `Buffer#copy`, then publishes the bytes written with
// `Atomics.store` and wakes the worker with `Atomics.notify`; the worker waits for new bytes, decodes all it finds at
// once (`Buffer#toString`), counts the records' lines and hands the room back by storing the bytes read. The main
// thread waits while the ring is full. Race-free: the ring's bytes are ordered by the two counters. With PER_PUBLISH
// above 1 the main thread copies that many records between two stores (thread-stream's buffered writes: one store per
// flush). Measures checks of small copies of partial pages in a new epoch each (issue 24 §2: thread-stream's
// bench.test.js, a million 50-byte writes) and of whole pages (its string-limit test, 1 KiB writes). Prints the same
// under plain node and under `goldilocks run`.
//
//   node bench/programs/ring-log.mjs [RECORDS=1000000] [RECORD_BYTES=50] [PER_PUBLISH=1] [RING_BYTES=4194304]
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** Indices of the state words: bytes written, bytes read (both counted from the start), the writer's end. */
const WRITTEN = 0;
const READ = 1;
const DONE = 2;

if (isMainThread) {
  const records = Number(process.argv[2] ?? 1_000_000);
  const recordBytes = Number(process.argv[3] ?? 50);
  const perPublish = Number(process.argv[4] ?? 1);
  const ringBytes = Number(process.argv[5] ?? 4 * 1024 * 1024);
  const state = new Int32Array(new SharedArrayBuffer(12));
  const ring = Buffer.from(new SharedArrayBuffer(ringBytes));
  const worker = new Worker(new URL(import.meta.url), { workerData: { state, ring } });
  const exited = new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
  const lines = new Promise((resolve) => worker.once('message', resolve));
  const line = `${'x'.repeat(recordBytes - 1)}\n`;
  let written = 0;
  for (let i = 0; i < records; i++) {
    const record = Buffer.from(line);
    while (written + record.length - Atomics.load(state, READ) > ringBytes)
      Atomics.wait(state, READ, Atomics.load(state, READ));
    const at = written % ringBytes;
    const first = Math.min(record.length, ringBytes - at);
    record.copy(ring, at, 0, first);
    if (first < record.length) record.copy(ring, 0, first);
    written += record.length;
    if ((i + 1) % perPublish === 0 || i + 1 === records) {
      Atomics.store(state, WRITTEN, written);
      Atomics.notify(state, WRITTEN);
    }
  }
  Atomics.store(state, DONE, 1);
  Atomics.notify(state, WRITTEN);
  console.log(`ring-log records=${records} bytes=${recordBytes} lines=${await lines}`);
  await exited;
} else {
  const { state } = workerData;
  const ring = Buffer.from(workerData.ring.buffer); // a Buffer arrives as a Uint8Array
  const size = ring.length;
  let read = 0;
  let lines = 0;
  for (;;) {
    const written = Atomics.load(state, WRITTEN);
    if (written === read) {
      if (Atomics.load(state, DONE) === 1 && Atomics.load(state, WRITTEN) === read) break;
      Atomics.wait(state, WRITTEN, read, 100);
      continue;
    }
    const from = read % size;
    const to = from + (written - read);
    const text =
      to <= size
        ? ring.toString('latin1', from, to)
        : ring.toString('latin1', from) + ring.toString('latin1', 0, to - size);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    read = written;
    Atomics.store(state, READ, read);
    Atomics.notify(state, READ);
  }
  parentPort.postMessage(lines);
}
