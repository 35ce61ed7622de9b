// The harness of the red-black SOR programs (../sor-flat.mjs, ../sor-parity.mjs), which differ only in their sweep:
// the main thread fills an N×N Float64 grid (a linear congruential sequence), starts WORKERS workers on the program's
// own file, each taking a block of rows, and prints the grid's sum after they exit; a worker runs ITERATIONS times
// the program's sweep of colour 0 then 1 over its rows, with a sense-reversing Atomics barrier after each half sweep
// (./barrier.mjs). Arguments: [N=800] [ITERATIONS=80] [WORKERS=2].
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { barrier } from './barrier.mjs';

/**
 * Runs the program at `url` (its `import.meta.url`), named `name` in its output line, with `sweep(grid, n, from, to,
 * color)` relaxing the elements of `color` in rows [from, to) of the n×n `grid`.
 */
export async function redBlack(url, name, sweep) {
  if (isMainThread) {
    const n = Number(process.argv[2] ?? 800);
    const iterations = Number(process.argv[3] ?? 80);
    const workers = Number(process.argv[4] ?? 2);
    const gridBuffer = new SharedArrayBuffer(n * n * 8);
    const grid = new Float64Array(gridBuffer);
    let seed = 12345;
    for (let k = 0; k < n * n; k++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      grid[k] = seed / 2147483648;
    }
    const sync = new Int32Array(new SharedArrayBuffer(8));
    const rows = Math.ceil(n / workers);
    const done = [];
    for (let w = 0; w < workers; w++) {
      const worker = new Worker(new URL(url), {
        workerData: {
          gridBuffer,
          sync,
          n,
          iterations,
          workers,
          from: w * rows,
          to: Math.min(n, (w + 1) * rows),
        },
      });
      done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
    }
    await Promise.all(done);
    let sum = 0;
    for (let k = 0; k < n * n; k++) sum += grid[k];
    console.log(`${name} n=${n} iterations=${iterations} workers=${workers} sum=${sum.toFixed(9)}`);
  } else {
    const { gridBuffer, sync, n, iterations, workers, from, to } = workerData;
    const grid = new Float64Array(gridBuffer);
    for (let it = 0; it < iterations; it++) {
      sweep(grid, n, from, to, 0);
      barrier(sync, workers);
      sweep(grid, n, from, to, 1);
      barrier(sync, workers);
    }
  }
}
