// expect: race
// idiom: a range-checked `while` loop (see range-loop-forms.mjs), racing: worker a writes element 40 unordered;
// worker b's while loop summing the view reads it: the range check would report a race, so the loop runs its
// per-access checks, which throw there under --on-race=throw, after the elements before it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
}));

let sum = 0;

/** Adds the elements of a to sum. */
function add(a) {
  let j = 0;
  while (j < a.length) {
    sum += a[j]; // race
    j++;
  }
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
