/**
 * RayTracer (Java Grande Forum, section 3): renders a scene of 64 spheres (a 4×4×4 grid; at size large 8, a
 * 2×2×2 grid) lit by 5 point lights, with shadows and reflections, at n×n pixels; the checksum is the sum of the
 * pixels' red, green and blue.
 *
 * Data (shared): the scene (Float64Arrays of the spheres and the lights, written by the main thread before the
 * start, then only read: every ray reads them), the image (Int32Array of n×n packed RGB) and the per-worker
 * checksums (Float64Array of workers). Worker w renders the rows y with y % workers === w (JGF's interleaving),
 * writing only those pixels and its own checksum slot. No barrier; the main thread sums after the join.
 *
 *   node bench/kernels/raytracer.mjs --workers 4 --size small
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { compareArrays, kernelMain, parseKernelArgs, printResult, runWorkers, shared } from './lib.mjs';

/**
 * [n (an n×n image), g (a g×g×g grid of spheres)]. large: an 11586×11586 image, 512 MiB of pixels, of a scene of
 * 8 spheres: the image is this kernel's data and its work is per pixel, a ray tested against every sphere for
 * itself, for each light's shadow ray and for each reflection, so 32 times medium's pixels over 64 spheres would
 * take ~60 s of CPU plain; 8 spheres make a pixel ~5 times cheaper (medium's image: 1.9 s of CPU with 64
 * spheres, 0.4 s with 8).
 */
const SIZES = { tiny: [40, 4], small: [150, 4], medium: [2000, 4], large: [11586, 2] };
/** Per sphere: centre x, y, z, radius, colour r, g, b, diffuse, specular, shininess, reflectance. */
const S = 11;
/** Per light: x, y, z, intensity. */
const L = 4;
const MAX_DEPTH = 3;
const EPS = 1e-6;

/** The spheres of a g×g×g grid centred on the view axis (g³ × S numbers) and the 5 lights (5 × L). */
function makeScene(spheres, lights, g) {
  let s = 0;
  for (let i = 0; i < g; i++)
    for (let j = 0; j < g; j++)
      for (let k = 0; k < g; k++) {
        const v = [2 * i - (g - 1), 2 * j - (g - 1), 10 + 2 * k, 0.6 + 0.05 * ((i + j + k) % 4)];
        v.push(
          0.3 + 0.2 * i,
          0.3 + 0.2 * j,
          0.3 + 0.2 * k,
          0.7,
          0.3,
          10 + 5 * k,
          (i + j + k) % 2 === 0 ? 0.4 : 0,
        );
        for (const x of v) spheres[s++] = x;
      }
  const ls = [
    [-10, 10, -5, 0.5],
    [10, 10, -5, 0.4],
    [0, -10, 0, 0.3],
    [0, 0, 30, 0.3],
    [5, 5, 5, 0.2],
  ];
  let l = 0;
  for (const v of ls) for (const x of v) lights[l++] = x;
}

class Color {
  r = 0;
  g = 0;
  b = 0;
}

/** Distance along the ray (o, d) (d of length 1) to the nearest sphere, and that sphere in `hit.sphere`. */
function nearest(spheres, count, ox, oy, oz, dx, dy, dz, hit) {
  let best = Number.POSITIVE_INFINITY;
  hit.sphere = -1;
  for (let s = 0; s < count; s++) {
    const b = s * S;
    const cx = ox - spheres[b];
    const cy = oy - spheres[b + 1];
    const cz = oz - spheres[b + 2];
    const rad = spheres[b + 3];
    const p = cx * dx + cy * dy + cz * dz;
    const disc = p * p - (cx * cx + cy * cy + cz * cz - rad * rad);
    if (disc <= 0) continue;
    const t = -p - Math.sqrt(disc);
    if (t > EPS && t < best) {
      best = t;
      hit.sphere = s;
    }
  }
  return best;
}

/** Colour seen along the ray (o, d), into colors[depth]. */
function trace(scene, ox, oy, oz, dx, dy, dz, depth, colors, hit) {
  const { spheres, lights, count, lightCount } = scene;
  const out = colors[depth];
  const t = nearest(spheres, count, ox, oy, oz, dx, dy, dz, hit);
  if (hit.sphere < 0) {
    out.r = 0.05;
    out.g = 0.05;
    out.b = 0.1;
    return;
  }
  const b = hit.sphere * S;
  const px = ox + t * dx;
  const py = oy + t * dy;
  const pz = oz + t * dz;
  const rad = spheres[b + 3];
  const nx = (px - spheres[b]) / rad;
  const ny = (py - spheres[b + 1]) / rad;
  const nz = (pz - spheres[b + 2]) / rad;
  const cr = spheres[b + 4];
  const cg = spheres[b + 5];
  const cb = spheres[b + 6];
  const kd = spheres[b + 7];
  const ks = spheres[b + 8];
  const shine = spheres[b + 9];
  const refl = spheres[b + 10];
  let r = 0.1 * cr;
  let g = 0.1 * cg;
  let bl = 0.1 * cb;
  const dn = dx * nx + dy * ny + dz * nz;
  const rx = dx - 2 * dn * nx;
  const ry = dy - 2 * dn * ny;
  const rz = dz - 2 * dn * nz;
  for (let l = 0; l < lightCount; l++) {
    const lb = l * L;
    let lx = lights[lb] - px;
    let ly = lights[lb + 1] - py;
    let lz = lights[lb + 2] - pz;
    const dist = Math.sqrt(lx * lx + ly * ly + lz * lz);
    lx /= dist;
    ly /= dist;
    lz /= dist;
    const diffuse = nx * lx + ny * ly + nz * lz;
    if (diffuse <= 0) continue;
    if (nearest(spheres, count, px, py, pz, lx, ly, lz, hit) < dist) continue;
    const intensity = lights[lb + 3];
    const spec = rx * lx + ry * ly + rz * lz;
    const highlight = spec > 0 ? ks * spec ** shine * intensity : 0;
    r += kd * diffuse * cr * intensity + highlight;
    g += kd * diffuse * cg * intensity + highlight;
    bl += kd * diffuse * cb * intensity + highlight;
  }
  if (refl > 0 && depth + 1 < MAX_DEPTH) {
    trace(scene, px, py, pz, rx, ry, rz, depth + 1, colors, hit);
    const c = colors[depth + 1];
    r += refl * c.r;
    g += refl * c.g;
    bl += refl * c.b;
  }
  out.r = r;
  out.g = g;
  out.b = bl;
}

/** Renders row y of the n×n image; returns the row's sum of red, green and blue. */
function renderRow(scene, image, n, y) {
  const colors = Array.from({ length: MAX_DEPTH }, () => new Color());
  const hit = { sphere: -1 };
  let sum = 0;
  for (let x = 0; x < n; x++) {
    let dx = (x + 0.5) / n - 0.5;
    let dy = 0.5 - (y + 0.5) / n;
    let dz = 1;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    dx /= len;
    dy /= len;
    dz /= len;
    trace(scene, 0, 0, 0, dx, dy, dz, 0, colors, hit);
    const c = colors[0];
    const r = Math.round(Math.min(1, c.r) * 255);
    const g = Math.round(Math.min(1, c.g) * 255);
    const b = Math.round(Math.min(1, c.b) * 255);
    image[y * n + x] = (r << 16) | (g << 8) | b;
    sum += r + g + b;
  }
  return sum;
}

function worker(data) {
  const { spheres, lights, image, sums, n, id, workers } = data;
  const scene = { spheres, lights, count: spheres.length / S, lightCount: lights.length / L };
  let sum = 0;
  for (let y = id; y < n; y += workers) sum += renderRow(scene, image, n, y);
  sums[id] = sum;
}

async function main() {
  const args = parseKernelArgs('raytracer');
  const [n, g] = SIZES[args.size];
  const spheres = shared(Float64Array, g * g * g * S);
  const lights = shared(Float64Array, 5 * L);
  makeScene(spheres, lights, g);
  const image = shared(Int32Array, n * n);
  const sums = shared(Float64Array, args.workers);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { spheres, lights, image, sums, n });
  let sum = 0;
  for (let w = 0; w < args.workers; w++) sum += sums[w];
  let mismatch;
  if (args.verify) {
    const sp = Float64Array.from(spheres);
    const li = Float64Array.from(lights);
    const scene = { spheres: sp, lights: li, count: sp.length / S, lightCount: li.length / L };
    const img = new Int32Array(n * n);
    let s = 0;
    for (let y = 0; y < n; y++) s += renderRow(scene, img, n, y);
    mismatch =
      compareArrays('image', image, img) ?? (s === sum ? undefined : `checksum ${sum}, sequential ${s}`);
  }
  printResult('raytracer', args, sum, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
