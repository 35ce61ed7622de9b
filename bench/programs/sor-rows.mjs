// The red-black SOR of sor-flat.mjs over a matrix held as an array of row views, `g[i][j]` (each row a
// Float64Array view of the one shared buffer: `grid.subarray(i * n, i * n + n)`), the way a grid is often written
// in JavaScript. The same grid, sweeps and barrier as sor-flat.mjs (its sum is the same). Race-free.
//
//   node bench/programs/sor-rows.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { barrier } from './lib/barrier.mjs';

const OMEGA = 1.25;
const data = isMainThread ? null : workerData;
const n = isMainThread ? Number(process.argv[2] ?? 800) : data.n;
const grid = isMainThread
  ? new Float64Array(new SharedArrayBuffer(n * n * 8))
  : new Float64Array(data.gridBuffer);

const g = Array.from({ length: n }, (_, i) => grid.subarray(i * n, i * n + n));

function sweep(from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++)
    for (let j = 1 + ((i + color) & 1); j < n - 1; j += 2)
      g[i][j] = (OMEGA / 4) * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]) + (1 - OMEGA) * g[i][j];
}

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
    const from = w * rows;
    const to = Math.min(n, (w + 1) * rows);
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { gridBuffer: grid.buffer, sync, n, iterations, workers, from, to },
    });
    done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
  }
  await Promise.all(done);
  let sum = 0;
  for (let k = 0; k < n * n; k++) sum += grid[k];
  console.log(`sor-rows n=${n} iterations=${iterations} workers=${workers} sum=${sum.toFixed(9)}`);
} else {
  for (let it = 0; it < data.iterations; it++) {
    sweep(data.from, data.to, 0);
    barrier(data.sync, data.workers);
    sweep(data.from, data.to, 1);
    barrier(data.sync, data.workers);
  }
}
