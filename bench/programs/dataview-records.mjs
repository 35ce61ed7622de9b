// Records in a SharedArrayBuffer read and written through a DataView by worker threads, written as a user would
// write it without this project in mind: each record is 16 bytes (an Int32 id, a Uint16 count, a Float64 value at
// offset 8, little-endian); each worker, PASSES times, each pass after an `Atomics.add` to its own counter (as work
// that follows a barrier or a lock), adds its id to every record's value and bumps its count, over its block of the
// N records; the main thread writes the ids first and reports the sums after the joins. Race-free. Prints the result,
// the same under plain node and under `goldilocks run`.
//
//   node bench/programs/dataview-records.mjs [N=100000] [PASSES=20] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

const SIZE = 16;

function update(view, from, to) {
  for (let r = from; r < to; r++) {
    const at = r * SIZE;
    view.setFloat64(at + 8, view.getFloat64(at + 8, true) + view.getInt32(at, true), true);
    view.setUint16(at + 4, view.getUint16(at + 4, true) + 1, true);
  }
}

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv, { n: 100_000, passes: 20, workers: 2 });
  const buffer = new SharedArrayBuffer(SIZE * n);
  const view = new DataView(buffer);
  const passCounts = new Int32Array(new SharedArrayBuffer(4 * workers));
  for (let r = 0; r < n; r++) view.setInt32(r * SIZE, r % 97, true);
  await runBlocks(new URL(import.meta.url), n, workers, { buffer, passCounts, passes });
  let values = 0;
  let counts = 0;
  for (let r = 0; r < n; r++) {
    values += view.getFloat64(r * SIZE + 8, true);
    counts += view.getUint16(r * SIZE + 4, true);
  }
  console.log(
    `dataview-records n=${n} passes=${passes} workers=${workers} values=${values} counts=${counts}`,
  );
} else {
  const { buffer, passCounts, w, passes, from, to } = workerData;
  const view = new DataView(buffer);
  for (let p = 0; p < passes; p++) {
    Atomics.add(passCounts, w, 1);
    update(view, from, to);
  }
}
