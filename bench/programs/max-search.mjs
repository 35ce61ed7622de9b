// A search over a Float64Array shared by worker threads, written as a user would write it without this project in
// mind: each worker finds the largest element of its block and where it is (`if (data[j] > max) { max = data[j]; at
// = j; }`), PASSES times, each pass after an `Atomics.add` to its own counter (as a search that follows a barrier or
// a lock: a synchronization before each pass), and stores both in a shared array of results; the main thread fills
// the data first and reports the largest after the joins. Race-free. Prints the result, the same under plain node and under
// `goldilocks run`.
//
//   node bench/programs/max-search.mjs [N=1000000] [PASSES=20] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

function argmax(data, from, to) {
  let max = -Infinity;
  let at = -1;
  for (let j = from; j < to; j++)
    if (data[j] > max) {
      max = data[j];
      at = j;
    }
  return at;
}

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv);
  const data = new Float64Array(new SharedArrayBuffer(8 * n));
  const results = new Float64Array(new SharedArrayBuffer(16 * workers));
  const passCounts = new Int32Array(new SharedArrayBuffer(4 * workers));
  for (let k = 0; k < n; k++) data[k] = ((k * 7919) % 1_000_003) / 1_000_003;
  await runBlocks(new URL(import.meta.url), n, workers, { data, results, passCounts, passes });
  let best = 0;
  for (let w = 1; w < workers; w++) if (results[2 * w] > results[2 * best]) best = w;
  console.log(
    `max-search n=${n} passes=${passes} workers=${workers} max=${results[2 * best].toFixed(6)} at=${results[2 * best + 1]}`,
  );
} else {
  const { data, results, passCounts, w, passes, from, to } = workerData;
  let at = -1;
  for (let p = 0; p < passes; p++) {
    Atomics.add(passCounts, w, 1);
    at = argmax(data, from, to);
  }
  results[2 * w] = data[at];
  results[2 * w + 1] = at;
}
