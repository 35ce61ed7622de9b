// Work claimed item by item through a shared counter, written as a user would write it without this project in mind:
// each worker takes the next item with `Atomics.add(next, 0, 1)` until none is left, computes its value and publishes
// it with `Atomics.store(results, i, v)`; after the joins the main thread reads every result with `Atomics.load` and
// prints their sum. Race-free: every access to the shared memory is atomic. Measures atomic operations over many
// distinct words (each item's result) and one contended counter; each worker's Info of a word it stored holds every
// word stored after it (docs/RUNTIME.md "Deferred collections"). Prints the same under plain node and under
// `goldilocks run`.
//
//   node bench/programs/claim-results.mjs [N=200000] [WORKERS=2]
import { isMainThread, Worker, workerData } from 'node:worker_threads';

/** A value that takes a little work to compute: the number of Collatz steps from i + 1, capped. */
function value(i) {
  let x = i + 1;
  let steps = 0;
  while (x !== 1 && steps < 1000) {
    x = x % 2 === 0 ? x / 2 : 3 * x + 1;
    steps++;
  }
  return steps;
}

if (isMainThread) {
  const n = Number(process.argv[2] ?? 200_000);
  const workers = Number(process.argv[3] ?? 2);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const results = new Int32Array(new SharedArrayBuffer(4 * n));
  const done = [];
  for (let w = 0; w < workers; w++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { next, results } });
    done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
  }
  await Promise.all(done);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Atomics.load(results, i);
  console.log(`claim-results n=${n} workers=${workers} sum=${sum}`);
} else {
  const { next, results } = workerData;
  for (let i = Atomics.add(next, 0, 1); i < results.length; i = Atomics.add(next, 0, 1))
    Atomics.store(results, i, value(i));
}
