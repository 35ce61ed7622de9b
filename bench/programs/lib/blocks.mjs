// The main thread of the block programs of bench/programs/ (compare-bytes.mjs, dataview-records.mjs, find-index.mjs,
// max-search.mjs, scale-while.mjs, sum-for-of.mjs): their arguments N, PASSES and WORKERS, and the workers each given
// a block of the N elements.
import { Worker } from 'node:worker_threads';

/** `[N] [PASSES] [WORKERS]` of `argv` (process.argv), by default those of `defaults` (1000000, 20 and 2). */
export function blockArgs(argv, defaults = { n: 1_000_000, passes: 20, workers: 2 }) {
  return {
    n: Number(argv[2] ?? defaults.n),
    passes: Number(argv[3] ?? defaults.passes),
    workers: Number(argv[4] ?? defaults.workers),
  };
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
