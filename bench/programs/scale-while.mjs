// A scan over a Float64Array shared by worker threads, written as a user would write it without this project in
// mind, with a while loop: each worker scales its block by a factor and sums it (`while (j < to) { data[j] *= f; s +=
// data[j]; j++; }`), PASSES times, each pass after an `Atomics.add` to its own counter (as a scan that follows a
// barrier or a lock: a synchronization before each pass), and stores its sum in a shared array of results; the main
// thread fills the data first and reports the total after the joins. Race-free. Prints the result, the same under
// plain node and under `goldilocks run`.
//
//   node bench/programs/scale-while.mjs [N=1000000] [PASSES=20] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

function scaleSum(data, from, to, f) {
  let s = 0;
  let j = from;
  while (j < to) {
    data[j] *= f;
    s += data[j];
    j++;
  }
  return s;
}

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv);
  const data = new Float64Array(new SharedArrayBuffer(8 * n));
  const results = new Float64Array(new SharedArrayBuffer(8 * workers));
  const passCounts = new Int32Array(new SharedArrayBuffer(4 * workers));
  for (let k = 0; k < n; k++) data[k] = (k % 1000) / 1000;
  await runBlocks(new URL(import.meta.url), n, workers, { data, results, passCounts, passes });
  const total = results.reduce((a, x) => a + x, 0);
  console.log(`scale-while n=${n} passes=${passes} workers=${workers} total=${total.toFixed(3)}`);
} else {
  const { data, results, passCounts, w, passes, from, to } = workerData;
  let s = 0;
  for (let p = 0; p < passes; p++) {
    Atomics.add(passCounts, w, 1);
    s = scaleSum(data, from, to, p % 2 === 0 ? 2 : 0.5);
  }
  results[w] = s;
}
