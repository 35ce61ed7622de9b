// Red-black successive over-relaxation as sor-flat.mjs (800×800, 80 iterations, 2 workers, an Atomics barrier), its
// colour chosen the other way users write it: every interior element of a row visited (`j++`), the other colour's
// skipped by `if ((i + j) % 2 !== color) continue;` — a loop whose accesses run in some iterations only. Race-free.
// Prints the grid's sum, the same under plain node and under `goldilocks run`.
//
//   node bench/programs/sor-parity.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { barrier } from './lib/barrier.mjs';

const OMEGA = 1.25;

function sweep(grid, n, from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++) {
    for (let j = 1; j < n - 1; j++) {
      if ((i + j) % 2 !== color) continue;
      const k = i * n + j;
      grid[k] = (OMEGA / 4) * (grid[k - n] + grid[k + n] + grid[k - 1] + grid[k + 1]) + (1 - OMEGA) * grid[k];
    }
  }
}

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
    const worker = new Worker(new URL(import.meta.url), {
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
  console.log(`sor-parity n=${n} iterations=${iterations} workers=${workers} sum=${sum.toFixed(9)}`);
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
