/**
 * LUFact (Java Grande Forum, section 2): LU factorization with partial pivoting of an n×n matrix (Linpack dgefa,
 * column-major), then the solve (dgesl) by the main thread; the right-hand side is the row sums, so the solution
 * is all ones.
 *
 * Data: the matrix a (Float64Array, column j at a[j·n .. j·n+n-1], shared) and the pivot indices ipvt (Int32Array
 * of n, shared). For each column k, two phases separated by barriers:
 *   1. worker 0 alone finds the pivot row l of column k, writes ipvt[k], swaps a[k][l] and a[k][k] and scales
 *      the rest of column k (it reads column k, written in the previous phase 2 by its owner: a barrier apart);
 *   2. every worker updates the columns j > k it owns (j % workers === id): swaps rows l and k of column j and
 *      adds a multiple of column k to it. Column k and ipvt[k] are only read in this phase, column j is written
 *      only by its owner.
 * The main thread fills a before starting the workers; after they exit it solves with a and ipvt (when the
 * factorization is complete: at size large it is not, see SIZES).
 *
 *   node bench/kernels/lufact.mjs --workers 4 --size small
 */
import { isMainThread, workerData } from 'node:worker_threads';
import {
  compareArrays,
  kernelMain,
  parseKernelArgs,
  printResult,
  runWorkers,
  shared,
  workerBarrier,
} from './lib.mjs';

/**
 * [n, pivot columns K]: the factorization eliminates columns 0..K-1 (K = n-1: the whole of it, then the solve).
 * large: the full 8193×8193 matrix (512 MiB) shared, eliminated for its first 64 pivot columns only (3.4 s plain at 2
 * workers, 6.6 s of CPU) — each is a pass over the whole trailing matrix, O(n²) (~67 M multiply-adds), while the
 * whole n³/3 is ~43 times that work (~5 min of CPU plain, several times that under the runtime). The matrix is then
 * only partly factored, so there is no solve: the checksum is the sum of its entries, and `--verify` compares it and
 * ipvt with the same K steps computed sequentially. n is odd because matgen's generator has period 2^14: with n =
 * 8192 every other column would repeat, and the trailing matrix would be exactly zero after two pivots (every update
 * skipped).
 */
const SIZES = { tiny: [60, 59], small: [300, 299], medium: [1550, 1549], large: [8193, 64] };

/** JGF matgen: a pseudo-random matrix with entries in [-2, 2), column-major. */
function matgen(a, n) {
  let init = 1325;
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      init = (3125 * init) % 65536;
      a[j * n + i] = (init - 32768) / 16384;
    }
}

/** The row sums of the column-major n×n matrix a: the right-hand side whose solution is all ones. */
function rowSums(a, n) {
  const b = new Float64Array(n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) b[i] += a[j * n + i];
  return b;
}

/** Phase 1 for column k: pivot search, swap and scaling of column k; returns the pivot row. */
function pivot(a, ipvt, n, k) {
  const col = k * n;
  let l = k;
  let max = Math.abs(a[col + k]);
  for (let i = k + 1; i < n; i++) {
    const v = Math.abs(a[col + i]);
    if (v > max) {
      max = v;
      l = i;
    }
  }
  ipvt[k] = l;
  if (a[col + l] === 0) return;
  if (l !== k) {
    const t = a[col + l];
    a[col + l] = a[col + k];
    a[col + k] = t;
  }
  const t = -1 / a[col + k];
  for (let i = k + 1; i < n; i++) a[col + i] *= t;
}

/** Phase 2 for column k, on column j > k: row interchange and daxpy. */
function update(a, ipvt, n, k, j) {
  const colk = k * n;
  if (a[colk + k] === 0) return;
  const l = ipvt[k];
  const colj = j * n;
  const t = a[colj + l];
  if (l !== k) {
    a[colj + l] = a[colj + k];
    a[colj + k] = t;
  }
  for (let i = k + 1; i < n; i++) a[colj + i] += t * a[colk + i];
}

function worker(data) {
  const { a, ipvt, n, pivots, id, workers } = data;
  const barrier = workerBarrier(data);
  for (let k = 0; k < pivots; k++) {
    if (id === 0) pivot(a, ipvt, n, k);
    barrier.wait();
    for (let j = k + 1 + ((((id - k - 1) % workers) + workers) % workers); j < n; j += workers)
      update(a, ipvt, n, k, j);
    barrier.wait();
  }
}

/** Linpack dgesl on the factored a: solves a·x = b in place in b. */
function solve(a, ipvt, n, b) {
  for (let k = 0; k < n - 1; k++) {
    const l = ipvt[k];
    const t = b[l];
    if (l !== k) {
      b[l] = b[k];
      b[k] = t;
    }
    for (let i = k + 1; i < n; i++) b[i] += t * a[k * n + i];
  }
  for (let k = n - 1; k >= 0; k--) {
    b[k] /= a[k * n + k];
    const t = -b[k];
    for (let i = 0; i < k; i++) b[i] += t * a[k * n + i];
  }
}

/** The first `pivots` steps of the factorization in one thread (all n-1 of them: also ipvt[n-1]). */
function sequential(n, pivots) {
  const a = new Float64Array(n * n);
  const ipvt = new Int32Array(n);
  matgen(a, n);
  for (let k = 0; k < pivots; k++) {
    pivot(a, ipvt, n, k);
    for (let j = k + 1; j < n; j++) update(a, ipvt, n, k, j);
  }
  if (pivots === n - 1) ipvt[n - 1] = n - 1;
  return { a, ipvt };
}

/** Solves with the complete factorization; the sum of the solution, or a message if it is not all ones. */
function checkSolution(a, ipvt, n, b) {
  ipvt[n - 1] = n - 1;
  solve(a, ipvt, n, b);
  let sum = 0;
  let err = 0;
  for (let i = 0; i < n; i++) {
    sum += b[i];
    err = Math.max(err, Math.abs(b[i] - 1));
  }
  return { sum, mismatch: err > 1e-8 ? `the solution is not all ones: max |x[i] - 1| = ${err}` : undefined };
}

async function main() {
  const args = parseKernelArgs('lufact');
  const [n, pivots] = SIZES[args.size];
  const a = shared(Float64Array, n * n);
  const ipvt = shared(Int32Array, n);
  matgen(a, n);
  const complete = pivots === n - 1;
  const b = complete ? rowSums(a, n) : undefined;
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { a, ipvt, n, pivots });
  let sum = 0;
  let mismatch;
  if (complete) ({ sum, mismatch } = checkSolution(a, ipvt, n, b));
  else for (let k = 0; k < a.length; k++) sum += a[k];
  if (mismatch === undefined && args.verify) {
    const s = sequential(n, pivots);
    mismatch = compareArrays('a', a, s.a) ?? compareArrays('ipvt', ipvt, s.ipvt);
  }
  printResult('lufact', args, sum, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
