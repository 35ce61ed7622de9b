// expect: race
// idiom: a range-checked loop bounded by its member view's length (`j < this.g.length`, see
// range-loop-member-length.mjs), racing: worker a writes element 40 unordered; worker b's method summing the view
// reads it: the range check would report a race, so the loop runs its per-access checks, which throw there under
// --on-race=throw, after the elements before it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
}));

let sum = 0;

class Whole {
  constructor(g) {
    this.g = g;
  }

  /** Adds the elements to sum. */
  add() {
    for (let j = 0; j < this.g.length; j++) sum += this.g[j]; // race
  }
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => new Whole(a).add(),
  () => sum,
  40,
);
