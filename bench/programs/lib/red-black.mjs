// The harness of the red-black SOR programs (../sor-*.mjs), which differ only in their sweep and in how they hold
// the grid: the main thread fills an N×N Float64 grid (a linear congruential sequence), starts WORKERS workers on the
// program's own file, each taking a block of rows, and prints the grid's sum after they exit; a worker runs
// ITERATIONS times the program's sweep of colour 0 then 1 over its rows, with a sense-reversing Atomics barrier after
// each half sweep (./barrier.mjs). Arguments: [N=800] [ITERATIONS=80] [WORKERS=2].
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { barrier } from './barrier.mjs';

/**
 * The grid's size n, from the main thread's arguments or a worker's data, and the grid: a new shared n×n
 * Float64Array in the main thread, a view of the main thread's in a worker.
 */
export function redBlackGrid() {
  const n = isMainThread ? Number(process.argv[2] ?? 800) : workerData.n;
  const grid = isMainThread
    ? new Float64Array(new SharedArrayBuffer(n * n * 8))
    : new Float64Array(workerData.gridBuffer);
  return { n, grid };
}

/**
 * Runs the program at `url` (its `import.meta.url`), named `name` in its output line, over the n×n grid `grid`
 * ({@link redBlackGrid}), with `relax(from, to, color)` relaxing the elements of `color` in rows [from, to).
 */
export async function redBlackOn(url, name, { n, grid }, relax) {
  if (isMainThread) {
    const iterations = Number(process.argv[3] ?? 80);
    const workers = Number(process.argv[4] ?? 2);
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
          gridBuffer: grid.buffer,
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
    const { sync, iterations, workers, from, to } = workerData;
    for (let it = 0; it < iterations; it++) {
      relax(from, to, 0);
      barrier(sync, workers);
      relax(from, to, 1);
      barrier(sync, workers);
    }
  }
}

/**
 * {@link redBlackOn} with `sweep(grid, n, from, to, color)` relaxing the elements of `color` in rows [from, to) of
 * the n×n `grid` it is handed.
 */
export async function redBlack(url, name, sweep) {
  const g = redBlackGrid();
  await redBlackOn(url, name, g, (from, to, color) => sweep(g.grid, g.n, from, to, color));
}
