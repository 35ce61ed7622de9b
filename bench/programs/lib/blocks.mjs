// The main thread of the block programs of bench/programs/ (dataview-records.mjs, find-index.mjs, max-search.mjs,
// scale-while.mjs, sum-for-of.mjs): their arguments N, PASSES and WORKERS, and the workers each given a block of the N
// elements.
import { Worker } from 'node:worker_threads';

/** `[N=1000000] [PASSES=20] [WORKERS=2]` of `argv` (process.argv). */
export function blockArgs(argv) {
  return { n: Number(argv[2] ?? 1_000_000), passes: Number(argv[3] ?? 20), workers: Number(argv[4] ?? 2) };
}

/**
 * Runs `workers` workers of the program at `url`, worker w given `{ ...data, w, from, to }` as workerData: its block
 * [from, to) of `n` elements (ceil(n / workers) each, the last one shorter). Resolves when every worker has exited;
 * rejects with a worker's error.
 */
export async function runBlocks(url, n, workers, data) {
  const size = Math.ceil(n / workers);
  const done = [];
  for (let w = 0; w < workers; w++) {
    const worker = new Worker(url, {
      workerData: { ...data, w, from: w * size, to: Math.min(n, (w + 1) * size) },
    });
    done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
  }
  await Promise.all(done);
}
