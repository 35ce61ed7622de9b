// A search with an early exit over a Float64Array shared by worker threads, written as a user would write it without
// this project in mind: each worker looks for a value in its block (`if (data[j] === x) return j;`), one that is not
// there, so that it reads every element, PASSES times, each pass after an `Atomics.add` to its own counter (a
// synchronization before each pass, as a search after a barrier or a lock), and stores what it found in a shared
// array of results; the main thread fills the data first and prints the results after the joins. Race-free. A loop
// that may exit early keeps its per-access checks (a range check would record reads the loop may not make): this
// measures them, on a thread's own data read again in each new epoch. Prints the same under plain node and under
// `goldilocks run`.
//
//   node bench/programs/find-index.mjs [N=1000000] [PASSES=20] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

function indexOf(data, from, to, x) {
  for (let j = from; j < to; j++) if (data[j] === x) return j;
  return -1;
}

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv);
  const data = new Float64Array(new SharedArrayBuffer(8 * n));
  const results = new Float64Array(new SharedArrayBuffer(8 * workers));
  const passCounts = new Int32Array(new SharedArrayBuffer(4 * workers));
  for (let k = 0; k < n; k++) data[k] = ((k * 7919) % 1_000_003) / 1_000_003;
  await runBlocks(new URL(import.meta.url), n, workers, { data, results, passCounts, passes });
  const found = Array.from({ length: workers }, (_, w) => results[w]).join(',');
  console.log(`find-index n=${n} passes=${passes} workers=${workers} found=${found}`);
} else {
  const { data, results, passCounts, w, passes, from, to } = workerData;
  let at = -1;
  for (let p = 0; p < passes; p++) {
    Atomics.add(passCounts, w, 1);
    at = indexOf(data, from, to, 2);
  }
  results[w] = at;
}
