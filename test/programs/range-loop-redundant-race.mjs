// expect: race
// idiom: a range-checked loop with a redundant conditional read that races: worker 0 writes element 40 unordered;
// worker 1 adds the positive elements of the view (`if (v[j] > 0) sum += v[j]`): the range check would report a
// race, so the loop runs with its per-access checks, which throw at element 40 (its if's read) under
// --on-race=throw after the elements before it were added.
import { stopsAtElement40, workers } from './sched.mjs';

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
}));

let sum = 0;

/** Adds the positive elements of v to sum. */
function add(v) {
  for (let j = 0; j < v.length; j++) if (v[j] > 0) sum += v[j]; // race
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => add(a),
  () => sum,
  40,
);
