/**
 * Series (Java Grande Forum, section 2): the first n Fourier coefficient pairs of f(x) = (x+1)^x on [0, 2], each
 * integrated with the trapezoid rule in 1000 steps (fewer at size large). Compute-bound: one shared write per
 * integral.
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

/**
 * [n coefficient pairs, trapezoid steps per integral]. large: 2^25 pairs, 512 MiB of coefficients, each integral in 3
 * steps (JGF's loop: the two ends and one interior point, so 6 evaluations of f per pair; 16 s of CPU plain, 8-20 s
 * at 2 workers on a shared 2-core host). The work per pair is what bounds this kernel — 1000 steps for 2^25 pairs
 * would take ~1.5 h of CPU plain, 6 steps took 40 s of CPU — and the coefficient arrays are its only data, so many
 * coefficients with coarse integrals is how it shares 512 MiB in seconds. Coarse integrals of high frequencies alias
 * (the values are not the series'): the published values are checked only at 1000 steps; `--verify` compares with the
 * same integrals computed sequentially.
 */
const SIZES = { tiny: [200, 1000], small: [2000, 1000], medium: [25000, 1000], large: [1 << 25, 3] };
/** The first four pairs at 1000 steps, as published with the Java Grande Forum benchmark (JGFSeriesBench.validate). */
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

/** Coefficient pair i into a[i], b[i], each integral in `steps` steps. */
function coefficient(a, b, i, steps) {
  if (i === 0) {
    a[0] = trapezoid(0, 2, steps, 0, 0) / 2;
    b[0] = 0;
    return;
  }
  a[i] = trapezoid(0, 2, steps, Math.PI * i, 1);
  b[i] = trapezoid(0, 2, steps, Math.PI * i, 2);
}

function worker(data) {
  const { a, b, n, steps, id, workers } = data;
  const [lo, hi] = block(n, workers, id);
  for (let i = lo; i < hi; i++) coefficient(a, b, i, steps);
}

async function main() {
  const args = parseKernelArgs('series');
  const [n, steps] = SIZES[args.size];
  const a = shared(Float64Array, n);
  const b = shared(Float64Array, n);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { a, b, n, steps });
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i] + b[i];
  let mismatch;
  for (let i = 0; i < REFERENCE.length && mismatch === undefined && steps === 1000; i++)
    for (const [k, got] of [a[i], b[i]].entries())
      if (Math.abs(got - REFERENCE[i][k]) > 1e-12)
        mismatch = `${'ab'[k]}[${i}] = ${got}, published ${REFERENCE[i][k]}`;
  if (mismatch === undefined && args.verify) {
    const sa = new Float64Array(n);
    const sb = new Float64Array(n);
    for (let i = 0; i < n; i++) coefficient(sa, sb, i, steps);
    mismatch = compareArrays('a', a, sa) ?? compareArrays('b', b, sb);
  }
  printResult('series', args, sum, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
