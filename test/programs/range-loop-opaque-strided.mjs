// expect: no race
// idiom: raytracer's `nearest` loop: records of STRIDE numbers, of which the loop reads the first two of each
// (strided: other fields between them), skips some with `continue`, calls `Math.sqrt`, reads module constants and
// writes a property of a plain object when a record is nearer. Worker 0 and worker 1 each read the records (written
// by the main thread before the fork) many times: from the second run on the loop's reads are covered (strided sets
// the filter covers), and the property writes are opaque operations that do not synchronize.
import { workers } from './sched.mjs';

const STRIDE = 5;
const LIMIT = 0.5;

/** The record whose first number is nearest `x` (its second above LIMIT), in `hit.at`; its distance. */
function nearest(recs, count, x, hit) {
  let best = Number.POSITIVE_INFINITY;
  hit.at = -1;
  for (let r = 0; r < count; r++) {
    const b = r * STRIDE;
    const d = recs[b] - x;
    if (recs[b + 1] <= LIMIT) continue;
    const dist = Math.sqrt(d * d);
    if (dist < best) {
      best = dist;
      hit.at = r;
    }
  }
  return best;
}

const COUNT = 40;
const { main, joined, i, at, data } = workers(import.meta.url, 2, () => {
  const data = new SharedArrayBuffer(8 * STRIDE * COUNT);
  const recs = new Float64Array(data);
  for (let r = 0; r < COUNT; r++) {
    recs[r * STRIDE] = r * 1.5;
    recs[r * STRIDE + 1] = r % 3 === 0 ? 0 : 1;
  }
  return { data };
});
if (main) await joined;
else
  at(i, () => {
    const recs = new Float64Array(data);
    const hit = {};
    let sum = 0;
    for (let q = 0; q < 50; q++) sum += nearest(recs, COUNT, q + 0.25 * i, hit) + hit.at;
    console.log(`worker ${i}: ${sum}`);
  });
