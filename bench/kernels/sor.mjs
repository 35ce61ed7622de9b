/**
 * SOR (Java Grande Forum, section 2): successive over-relaxation on an n×n grid, omega 1.25, red-black by rows.
 *
 * Data: the grid G (Float64Array, row-major, shared). Worker w owns a contiguous block of the interior rows
 * 1..n-2. Pass p (0 .. 2·iterations-1) updates, in place, the rows i of the worker's block with i % 2 === p % 2
 * (global parity, whatever the block's start): row i reads rows i-1 and i+1, which have the other parity and
 * are not written in this pass (not even by the neighbouring worker), and its own row (same thread). A barrier
 * separates the passes. The main thread fills G before starting the workers and sums it after they exit.
 *
 *   node bench/kernels/sor.mjs --workers 4 --size small
 */
import { isMainThread, workerData } from 'node:worker_threads';
import {
  block,
  compareArrays,
  kernelMain,
  parseKernelArgs,
  printResult,
  random,
  runWorkers,
  shared,
  workerBarrier,
} from './lib.mjs';

/** [n, iterations]; large: a 512 MiB grid. */
const SIZES = { tiny: [64, 10], small: [450, 100], medium: [2100, 100], large: [8192, 2] };
const OMEGA = 1.25;

/** Updates row i of the n×n grid g in place. */
function relaxRow(g, n, i) {
  const w4 = OMEGA * 0.25;
  const w1 = 1 - OMEGA;
  const up = (i - 1) * n;
  const row = i * n;
  const down = (i + 1) * n;
  for (let j = 1; j < n - 1; j++)
    g[row + j] = w4 * (g[up + j] + g[down + j] + g[row + j - 1] + g[row + j + 1]) + w1 * g[row + j];
}

function worker(data) {
  const { g, n, iterations, id, workers } = data;
  const barrier = workerBarrier(data);
  const [lo, hi] = block(n - 2, workers, id).map((x) => x + 1);
  for (let p = 0; p < 2 * iterations; p++) {
    for (let i = lo + ((lo + p) & 1); i < hi; i += 2) relaxRow(g, n, i);
    barrier.wait();
  }
}

function fill(g) {
  const r = random(10101010);
  for (let k = 0; k < g.length; k++) g[k] = r() * 1e-6;
}

function sequential(n, iterations) {
  const g = new Float64Array(n * n);
  fill(g);
  for (let p = 0; p < 2 * iterations; p++)
    for (let i = 1 + ((1 + p) & 1); i < n - 1; i += 2) relaxRow(g, n, i);
  return g;
}

async function main() {
  const args = parseKernelArgs('sor');
  const [n, iterations] = SIZES[args.size];
  const g = shared(Float64Array, n * n);
  fill(g);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { g, n, iterations });
  let sum = 0;
  for (let k = 0; k < g.length; k++) sum += g[k];
  printResult(
    'sor',
    args,
    sum,
    ms,
    args.verify ? compareArrays('G', g, sequential(n, iterations)) : undefined,
  );
}

kernelMain(isMainThread, main, worker, workerData);
