// expect: race
// idiom: a range-checked loop bounded and indexed by a member number (`j < this.n`, `this.g[r * this.n + j]`, see
// range-loop-member-numbers.mjs), its body scaling by another (`this.w`), racing: worker a writes element 40 (row 2,
// element 8) unordered; worker b's method summing row 2 reads it: the range check would report a race, so the loop
// runs its per-access checks, which throw there under --on-race=throw, after the elements before it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const N = 16;
const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 4 * N)).fill(1),
}));

let sum = 0;

class Rows {
  constructor(g, n, w) {
    this.g = g;
    this.n = n;
    this.w = w;
  }

  /** Adds row r's elements, times w, to sum. */
  add(r) {
    for (let j = 0; j < this.n; j++) sum += this.w * this.g[r * this.n + j]; // race
  }
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => new Rows(a, N, 2).add(2),
  () => sum,
  16,
);
