/**
 * MolDyn (Java Grande Forum, section 3): molecular dynamics of p = 4·mm³ argon atoms (Lennard-Jones potential,
 * cut-off, periodic boundaries, minimum image) in a cube, `moves` time steps, velocities rescaled to the
 * reference temperature after step 10. At size large, an ensemble of such boxes (independent replicas, each with
 * its own initial velocities, stepped together; see SIZES): the n = boxes · p particles are box after box in the
 * arrays, and a particle interacts only with the particles of its own box.
 *
 * Data (shared): positions pos, velocities vel and forces force (Float64Arrays of 3n), the per-worker force
 * accumulators acc (Float64Array of workers × 3n: acc[w] is worker w's) and the per-worker sums red
 * (Float64Array of workers × 4: potential energy, virial, kinetic energy, interactions). Worker w owns the
 * contiguous block of particles block(n, workers, w). Per time step, three phases and three barriers:
 *   A. (own block) rescale the velocities if due — every worker reads all the kinetic-energy slots red[·][2],
 *      written in the previous phase C — then move: pos += vel + force, vel += force, force = 0;
 *   B. (the particles i with i % workers === w, JGF's interleaving) the pair forces of i with every j > i of its
 *      box: reads pos of all particles (written in A), adds into its own acc[w] only (both i's and j's entries),
 *      writes its own red[w][0, 1, 3];
 *   C. (own block) force[i] = the sum of acc[0..workers-1][i], which it then zeroes (each acc entry of i is read
 *      and reset only by i's owner, a barrier after the writers of B), then vel += force and the kinetic energy
 *      of the block into red[w][2].
 * The main thread fills pos and vel (box by box, through views of them) before the start and reads everything
 * after the join.
 *
 *   node bench/kernels/moldyn.mjs --workers 4 --size small
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

/**
 * [mm (p = 4·mm³ particles per box), boxes, time steps]. large: 22,000 boxes of 256 particles (mm = 4), 5.6 M
 * particles, 2 steps: 516 MiB shared at 1 worker, 644 MiB at 2, 902 MiB at 4 (acc grows with the workers).
 * JGF's force phase is all pairs of the box, O(p²) per step, and its cut-off grows with the box (mm / 4): one
 * box of 5.6 M particles would take more than a day per step even plain. An ensemble of small boxes — replicas of
 * one system from different initial velocities, a common way to average a simulation — keeps that code and its
 * cost per pair, and makes the work linear in the data: ~128 pairs per particle per step (2 steps: ~12 s of CPU
 * plain; 4 steps took 23 s). With fewer than 10 steps the velocities are never rescaled at large; when they
 * are, it is by the ensemble's mean kinetic energy per box.
 */
const SIZES = { tiny: [3, 1, 10], small: [5, 1, 30], medium: [10, 1, 60], large: [4, 22000, 2] };
const DEN = 0.83134;
const TREF = 0.722;
const H = 0.064;
/** Rescale the velocities after every IREP-th step, before step ISTOP. */
const IREP = 10;
const ISTOP = 19;

/** The constants of `boxes` boxes of p = 4·mm³ particles each, n of them in all. */
function constants(mm, boxes) {
  const p = 4 * mm * mm * mm;
  const side = (p / DEN) ** (1 / 3);
  // JGF's cut-off is mm / 4; at least 2 here, so that the small lattices have interactions at all
  return {
    p,
    n: boxes * p,
    boxes,
    side,
    rcoff: Math.max(2, mm / 4),
    hsq: H * H,
    hsq2: H * H * 0.5,
    tscale: 16 / (p - 1),
  };
}

/**
 * The initial state of one box (pos, vel: views of its 3p numbers): an FCC lattice, Gaussian velocities drawn
 * from seed, with no net momentum, scaled to the temperature.
 */
function initialize(c, mm, pos, vel, seed) {
  const a = c.side / mm;
  let ijk = 0;
  const put = (x, y, z) => {
    pos[3 * ijk] = x;
    pos[3 * ijk + 1] = y;
    pos[3 * ijk + 2] = z;
    ijk++;
  };
  for (let lg = 0; lg <= 1; lg++)
    for (let i = 0; i < mm; i++)
      for (let j = 0; j < mm; j++)
        for (let k = 0; k < mm; k++) put(i * a + lg * a * 0.5, j * a + lg * a * 0.5, k * a);
  for (let lg = 1; lg <= 2; lg++)
    for (let i = 0; i < mm; i++)
      for (let j = 0; j < mm; j++)
        for (let k = 0; k < mm; k++)
          put(i * a + (2 - lg) * a * 0.5, j * a + (lg - 1) * a * 0.5, k * a + a * 0.5);
  const r = random(seed);
  for (let d = 0; d < 3; d++) {
    for (let i = 0; i < c.p; i += 2) {
      let v1;
      let v2;
      let s;
      do {
        v1 = 2 * r() - 1;
        v2 = 2 * r() - 1;
        s = v1 * v1 + v2 * v2;
      } while (s >= 1 || s === 0);
      const f = Math.sqrt((-2 * Math.log(s)) / s);
      vel[3 * i + d] = f * v1;
      vel[3 * (i + 1) + d] = f * v2;
    }
  }
  let ekin = 0;
  for (let d = 0; d < 3; d++) {
    let sp = 0;
    for (let i = 0; i < c.p; i++) sp += vel[3 * i + d];
    sp /= c.p;
    for (let i = 0; i < c.p; i++) {
      vel[3 * i + d] -= sp;
      ekin += vel[3 * i + d] ** 2;
    }
  }
  const sc = H * Math.sqrt(TREF / (c.tscale * ekin));
  for (let i = 0; i < 3 * c.p; i++) vel[i] *= sc;
}

/** Phase A for particles [lo, hi). */
function move(s, c, move, lo, hi) {
  const { pos, vel, force, red, workers } = s;
  if (move > 0 && move % IREP === 0 && move - 1 < ISTOP) {
    let ekin = 0;
    for (let w = 0; w < workers; w++) ekin += red[4 * w + 2];
    const sc = Math.sqrt(TREF / ((c.tscale * (ekin / c.boxes)) / c.hsq));
    for (let i = 3 * lo; i < 3 * hi; i++) vel[i] *= sc;
  }
  for (let i = 3 * lo; i < 3 * hi; i++) {
    let x = pos[i] + vel[i] + force[i];
    if (x < 0) x += c.side;
    if (x > c.side) x -= c.side;
    pos[i] = x;
    vel[i] += force[i];
    force[i] = 0;
  }
}

/** Phase B for worker w: the pair forces of particles w, w + workers, ... into acc[w]. */
function forces(s, c, w) {
  const { pos, acc, red, workers } = s;
  const { p, n, side } = c;
  const sideh = 0.5 * side;
  const rcoffs = c.rcoff * c.rcoff;
  const base = w * 3 * n;
  let epot = 0;
  let vir = 0;
  let interactions = 0;
  for (let i = w; i < n; i += workers) {
    const end = (Math.floor(i / p) + 1) * p;
    const xi = pos[3 * i];
    const yi = pos[3 * i + 1];
    const zi = pos[3 * i + 2];
    let fxi = 0;
    let fyi = 0;
    let fzi = 0;
    for (let j = i + 1; j < end; j++) {
      let xx = xi - pos[3 * j];
      let yy = yi - pos[3 * j + 1];
      let zz = zi - pos[3 * j + 2];
      if (xx < -sideh) xx += side;
      else if (xx > sideh) xx -= side;
      if (yy < -sideh) yy += side;
      else if (yy > sideh) yy -= side;
      if (zz < -sideh) zz += side;
      else if (zz > sideh) zz -= side;
      const rd = xx * xx + yy * yy + zz * zz;
      if (rd > rcoffs) continue;
      const rrd = 1 / rd;
      const rrd2 = rrd * rrd;
      const rrd3 = rrd2 * rrd;
      const rrd4 = rrd2 * rrd2;
      const rrd6 = rrd2 * rrd4;
      const rrd7 = rrd6 * rrd;
      epot += rrd6 - rrd3;
      const r148 = rrd7 - 0.5 * rrd4;
      vir -= rd * r148;
      interactions++;
      fxi += xx * r148;
      fyi += yy * r148;
      fzi += zz * r148;
      acc[base + 3 * j] -= xx * r148;
      acc[base + 3 * j + 1] -= yy * r148;
      acc[base + 3 * j + 2] -= zz * r148;
    }
    acc[base + 3 * i] += fxi;
    acc[base + 3 * i + 1] += fyi;
    acc[base + 3 * i + 2] += fzi;
  }
  red[4 * w] = epot;
  red[4 * w + 1] = vir;
  red[4 * w + 3] = interactions;
}

/** Phase C for worker w's particles [lo, hi). */
function kinetic(s, c, w, lo, hi) {
  const { vel, force, acc, red, workers } = s;
  const stride = 3 * c.n;
  let ekin = 0;
  for (let i = 3 * lo; i < 3 * hi; i++) {
    let f = 0;
    for (let v = 0; v < workers; v++) {
      f += acc[v * stride + i];
      acc[v * stride + i] = 0;
    }
    f *= c.hsq2;
    force[i] = f;
    vel[i] += f;
    ekin += vel[i] * vel[i];
  }
  red[4 * w + 2] = ekin;
}

function worker(data) {
  const { mm, boxes, moves, id, workers } = data;
  const barrier = workerBarrier(data);
  const c = constants(mm, boxes);
  const [lo, hi] = block(c.n, workers, id);
  for (let m = 0; m < moves; m++) {
    move(data, c, m, lo, hi);
    barrier.wait();
    forces(data, c, id);
    barrier.wait();
    kinetic(data, c, id, lo, hi);
    barrier.wait();
  }
}

function arrays(alloc, n, workers) {
  return {
    pos: alloc(3 * n),
    vel: alloc(3 * n),
    force: alloc(3 * n),
    acc: alloc(workers * 3 * n),
    red: alloc(workers * 4),
    workers,
  };
}

/**
 * The same phases, run one worker's share after the other in one thread: the forces are summed in the same
 * order as in the parallel run, so the results are equal bit for bit.
 */
function sequential(mm, boxes, moves, workers) {
  const c = constants(mm, boxes);
  const s = arrays((k) => new Float64Array(k), c.n, workers);
  initializeBoxes(c, mm, s.pos, s.vel);
  const parts = Array.from({ length: workers }, (_, w) => block(c.n, workers, w));
  for (let m = 0; m < moves; m++) {
    for (const [lo, hi] of parts) move(s, c, m, lo, hi);
    for (let w = 0; w < workers; w++) forces(s, c, w);
    for (let w = 0; w < workers; w++) kinetic(s, c, w, ...parts[w]);
  }
  return s;
}

/** Every box's initial state, box b's in its views of pos and vel, its velocities drawn from seed 4711 + b. */
function initializeBoxes(c, mm, pos, vel) {
  const k = 3 * c.p;
  for (let b = 0; b < c.boxes; b++)
    initialize(c, mm, pos.subarray(b * k, (b + 1) * k), vel.subarray(b * k, (b + 1) * k), 4711 + b);
}

async function main() {
  const args = parseKernelArgs('moldyn');
  const [mm, boxes, moves] = SIZES[args.size];
  const c = constants(mm, boxes);
  const s = arrays((k) => shared(Float64Array, k), c.n, args.workers);
  initializeBoxes(c, mm, s.pos, s.vel);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { ...s, mm, boxes, moves });
  let epot = 0;
  let ekin = 0;
  for (let w = 0; w < args.workers; w++) {
    epot += s.red[4 * w];
    ekin += s.red[4 * w + 2];
  }
  const checksum = (ekin / c.hsq) * 24 + epot * 4;
  let mismatch = Number.isFinite(checksum) ? undefined : `energy is ${checksum}`;
  if (mismatch === undefined && args.verify) {
    const q = sequential(mm, boxes, moves, args.workers);
    mismatch =
      compareArrays('pos', s.pos, q.pos) ??
      compareArrays('vel', s.vel, q.vel) ??
      compareArrays('red', s.red, q.red);
  }
  printResult('moldyn', args, checksum, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
