/**
 * Series (Java Grande Forum, section 2): the first n Fourier coefficient pairs of f(x) = (x+1)^x on [0, 2], each
 * integrated with the trapezoid rule in 1000 steps. Compute-bound: one shared write per integral.
 *
 * Data: the coefficients, a (cosine terms) and b (sine terms), Float64Arrays of n (shared). Worker w computes
 * the coefficients of its contiguous block of indices and writes only those; nothing is read back until the
 * main thread joins the workers. No barrier.
 *
 *   node bench/kernels/series.mjs --workers 4 --size small
 */
import { isMainThread, workerData } from 'node:worker_threads';
import {
  block,
  compareArrays,
  kernelMain,
  parseKernelArgs,
  printResult,
  runWorkers,
  shared,
} from './lib.mjs';

const SIZES = { tiny: 200, small: 2000, medium: 25000 };
const STEPS = 1000;
/** The first four pairs, as published with the Java Grande Forum benchmark (JGFSeriesBench.validate). */
const REFERENCE = [
  [2.8729524964837996, 0.0],
  [1.1161046676147888, -1.8819691893398025],
  [0.34429060398168704, -1.1645642623320958],
  [0.15238898702519288, -0.8143461113044298],
];

/** select 0: (x+1)^x, 1: times cos(omegan·x), 2: times sin(omegan·x). */
function f(x, omegan, select) {
  if (select === 0) return (x + 1) ** x;
  if (select === 1) return (x + 1) ** x * Math.cos(omegan * x);
  return (x + 1) ** x * Math.sin(omegan * x);
}

/**
 * The trapezoid rule as JGF writes it: its loop (`--nsteps; while (--nsteps > 0)`) adds nsteps-2 interior
 * points, not nsteps-1; kept, so that the published values apply.
 */
function trapezoid(x0, x1, nsteps, omegan, select) {
  const dx = (x1 - x0) / nsteps;
  let x = x0;
  let r = f(x0, omegan, select) / 2;
  for (let k = 2; k < nsteps; k++) {
    x += dx;
    r += f(x, omegan, select);
  }
  return (r + f(x1, omegan, select) / 2) * dx;
}

/** Coefficient pair i into a[i], b[i]. */
function coefficient(a, b, i) {
  if (i === 0) {
    a[0] = trapezoid(0, 2, STEPS, 0, 0) / 2;
    b[0] = 0;
    return;
  }
  a[i] = trapezoid(0, 2, STEPS, Math.PI * i, 1);
  b[i] = trapezoid(0, 2, STEPS, Math.PI * i, 2);
}

function worker(data) {
  const { a, b, n, id, workers } = data;
  const [lo, hi] = block(n, workers, id);
  for (let i = lo; i < hi; i++) coefficient(a, b, i);
}

async function main() {
  const args = parseKernelArgs('series');
  const n = SIZES[args.size];
  const a = shared(Float64Array, n);
  const b = shared(Float64Array, n);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { a, b, n });
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i] + b[i];
  let mismatch;
  for (let i = 0; i < REFERENCE.length && mismatch === undefined; i++)
    for (const [k, got] of [a[i], b[i]].entries())
      if (Math.abs(got - REFERENCE[i][k]) > 1e-12)
        mismatch = `${'ab'[k]}[${i}] = ${got}, published ${REFERENCE[i][k]}`;
  if (mismatch === undefined && args.verify) {
    const sa = new Float64Array(n);
    const sb = new Float64Array(n);
    for (let i = 0; i < n; i++) coefficient(sa, sb, i);
    mismatch = compareArrays('a', a, sa) ?? compareArrays('b', b, sb);
  }
  printResult('series', args, sum, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
