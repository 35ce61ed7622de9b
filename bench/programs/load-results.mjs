// Results gathered with atomic loads, written as a user would write it without this project in mind: each worker
// computes the values of its block of an Int32Array of results (plain writes), and after the joins the main thread
// reads every result with `Atomics.load` (as code that reads shared memory only atomically, to be safe) and prints
// their sum, PASSES times. Race-free: the joins order the workers' writes before the main thread's loads. Measures
// atomic operations over many distinct words that no other thread synchronizes on. Prints the same under plain node
// and under `goldilocks run`.
//
//   node bench/programs/load-results.mjs [N=262144] [PASSES=4] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv, { n: 262_144, passes: 4, workers: 2 });
  const results = new Int32Array(new SharedArrayBuffer(4 * n));
  await runBlocks(new URL(import.meta.url), n, workers, { results });
  let sum = 0;
  for (let p = 0; p < passes; p++) for (let i = 0; i < n; i++) sum += Atomics.load(results, i);
  console.log(`load-results n=${n} passes=${passes} workers=${workers} sum=${sum}`);
} else {
  const { results, from, to } = workerData;
  for (let i = from; i < to; i++) results[i] = (i * 7919) % 1009;
}
