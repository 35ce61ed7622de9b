// expect: race
// idiom: a range-checked loop over a member view (`this.g[r * N + j]`, see range-loop-member-views.mjs), racing:
// worker a writes element 40 (row 2, element 8) unordered; worker b's method summing row 2 reads it: the range check
// would report a race, so the loop runs its per-access checks, which throw there under --on-race=throw, after the
// elements before it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const N = 16;
const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 4 * N)).fill(1),
}));

let sum = 0;

class Rows {
  constructor(g) {
    this.g = g;
  }

  /** Adds row r's elements to sum. */
  add(r) {
    for (let j = 0; j < N; j++) sum += this.g[r * N + j]; // race
  }
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => new Rows(a).add(2),
  () => sum,
  8,
);
