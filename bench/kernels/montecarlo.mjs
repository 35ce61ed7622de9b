/**
 * MonteCarlo (Java Grande Forum, section 3): Monte Carlo simulation of the price of a stock as geometric Brownian
 * motion, with drift and volatility estimated from a (here generated) historical rate path; the result is the
 * mean over the runs of each simulated path's expected return rate.
 *
 * Data (shared): params (Float64Array: drift, volatility, time step, start value; written by the main thread
 * before the start, then only read), the per-run results rate and vol (Float64Arrays of runs), and the paths
 * (Float64Array): at sizes tiny to medium one buffer per worker (workers × steps; worker w reuses its own slice
 * for each of its runs, as each JGF task allocates its own path), at size large every run's path (runs × steps;
 * run k writes slice k, as JGF's ToResult keeps each run's stockPriceTimeSeries). Worker w simulates its
 * contiguous block of runs and writes only their results and paths. No barrier; the main thread averages after
 * the join.
 *
 *   node bench/kernels/montecarlo.mjs --workers 4 --size small
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
} from './lib.mjs';

/**
 * [runs, steps per path, every run's path kept]. large: 135,000 runs of 500 steps with every path kept, 515 MiB of
 * paths: the work is linear in the data (one step computes one path element), so the paths are what is shared at 512
 * MiB, each run as long as at medium (3-13 s plain at 2 workers on a shared 2-core host); the per-run results alone
 * would need 32 M runs of a few steps each, too short for the drift and volatility estimates.
 */
const SIZES = {
  tiny: [100, 250, false],
  small: [3000, 500, false],
  medium: [100000, 500, false],
  large: [135000, 500, true],
};
const HISTORY = 1000;
const DT = 1 / 365;

/** A standard normal deviate from a uniform generator (polar Box-Muller, one of the pair). */
function gaussian(r) {
  for (;;) {
    const v1 = 2 * r() - 1;
    const v2 = 2 * r() - 1;
    const s = v1 * v1 + v2 * v2;
    if (s > 0 && s < 1) return v1 * Math.sqrt((-2 * Math.log(s)) / s);
  }
}

/** Drift and volatility (per unit time) of the log returns of path[0 .. length-1] (JGF RatePath estimatePath). */
function estimate(path, offset, length, dt) {
  let mean = 0;
  for (let t = 1; t < length; t++) mean += Math.log(path[offset + t] / path[offset + t - 1]);
  mean /= length - 1;
  let variance = 0;
  for (let t = 1; t < length; t++) {
    const d = Math.log(path[offset + t] / path[offset + t - 1]) - mean;
    variance += d * d;
  }
  variance /= length - 2;
  const vol = Math.sqrt(variance / dt);
  return [mean / dt + 0.5 * vol * vol, vol];
}

/** Run k: simulates a path of `steps` steps in path[offset ..], writes its expected return rate and volatility. */
function simulate(params, path, offset, steps, k, rate, vol) {
  const mu = params[0];
  const sigma = params[1];
  const dt = params[2];
  const r = random(1000003 * (k + 1));
  const drift = (mu - 0.5 * sigma * sigma) * dt;
  const diffusion = sigma * Math.sqrt(dt);
  path[offset] = params[3];
  for (let t = 1; t < steps; t++)
    path[offset + t] = path[offset + t - 1] * Math.exp(drift + diffusion * gaussian(r));
  const [m, v] = estimate(path, offset, steps, dt);
  rate[k] = m;
  vol[k] = v;
}

function worker(data) {
  const { params, paths, rate, vol, runs, steps, keep, id, workers } = data;
  const [lo, hi] = block(runs, workers, id);
  for (let k = lo; k < hi; k++) simulate(params, paths, (keep ? k : id) * steps, steps, k, rate, vol);
}

async function main() {
  const args = parseKernelArgs('montecarlo');
  const [runs, steps, keep] = SIZES[args.size];
  // the historical rate path the parameters are estimated from (JGF reads one from a file)
  const history = new Float64Array(HISTORY);
  const r = random(2718281);
  history[0] = 100;
  for (let t = 1; t < HISTORY; t++) history[t] = history[t - 1] * Math.exp(0.0002 + 0.01 * gaussian(r));
  const [mu, sigma] = estimate(history, 0, HISTORY, DT);
  const params = shared(Float64Array, 4);
  params[0] = mu;
  params[1] = sigma;
  params[2] = DT;
  params[3] = history[HISTORY - 1];
  const rate = shared(Float64Array, runs);
  const vol = shared(Float64Array, runs);
  const paths = shared(Float64Array, (keep ? runs : args.workers) * steps);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, {
    params,
    paths,
    rate,
    vol,
    runs,
    steps,
    keep,
  });
  let sum = 0;
  for (let k = 0; k < runs; k++) sum += rate[k];
  let mismatch;
  if (args.verify) {
    const p = new Float64Array([mu, sigma, DT, history[HISTORY - 1]]);
    const path = new Float64Array(steps);
    const sr = new Float64Array(runs);
    const sv = new Float64Array(runs);
    for (let k = 0; k < runs; k++) simulate(p, path, 0, steps, k, sr, sv);
    mismatch = compareArrays('rate', rate, sr) ?? compareArrays('vol', vol, sv);
  }
  printResult('montecarlo', args, sum / runs, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
