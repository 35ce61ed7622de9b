// A reduction over a Float64Array shared by worker threads, written as a user would write it without this project in
// mind: each worker sums the squares of its block of elements (a subarray) with `for (const x of block)`, PASSES
// times, and stores its sum in a shared array of results; the main thread fills the data first and adds the results
// after the joins. Race-free. Prints the total, the same under plain node and under `goldilocks run`.
//
//   node bench/programs/sum-for-of.mjs [N=1000000] [PASSES=20] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

function sumOfSquares(block) {
  let s = 0;
  for (const x of block) s += x * x;
  return s;
}

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv);
  const data = new Float64Array(new SharedArrayBuffer(8 * n));
  const results = new Float64Array(new SharedArrayBuffer(8 * workers));
  for (let k = 0; k < n; k++) data[k] = (k % 11) / 11;
  await runBlocks(new URL(import.meta.url), n, workers, { data, results, passes });
  let total = 0;
  for (let w = 0; w < workers; w++) total += results[w];
  console.log(`sum-for-of n=${n} passes=${passes} workers=${workers} total=${total.toFixed(6)}`);
} else {
  const { data, results, w, passes, from, to } = workerData;
  const block = data.subarray(from, to);
  let s = 0;
  for (let p = 0; p < passes; p++) s += sumOfSquares(block);
  results[w] = s;
}
