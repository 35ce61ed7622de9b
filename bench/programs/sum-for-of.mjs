// A reduction over a Float64Array shared by worker threads, written as a user would write it without this project in
// mind: each worker sums the squares of its block of elements (a subarray) with `for (const x of block)`, PASSES
// times, and stores its sum in a shared array of results; the main thread fills the data first and adds the results
// after the joins. Race-free. Prints the total, the same under plain node and under `goldilocks run`.
//
//   node bench/programs/sum-for-of.mjs [N=1000000] [PASSES=20] [WORKERS=2]
import { isMainThread, Worker, workerData } from 'node:worker_threads';

function sumOfSquares(block) {
  let s = 0;
  for (const x of block) s += x * x;
  return s;
}

if (isMainThread) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const passes = Number(process.argv[3] ?? 20);
  const workers = Number(process.argv[4] ?? 2);
  const data = new Float64Array(new SharedArrayBuffer(8 * n));
  const results = new Float64Array(new SharedArrayBuffer(8 * workers));
  for (let k = 0; k < n; k++) data[k] = (k % 11) / 11;
  const size = Math.ceil(n / workers);
  const done = [];
  for (let w = 0; w < workers; w++) {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { data, results, w, passes, from: w * size, to: Math.min(n, (w + 1) * size) },
    });
    done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
  }
  await Promise.all(done);
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
