// expect: race
// idiom: a range-checked loop bounded by `!==`, going down (see range-loop-forms.mjs), racing: worker a writes element
// 40 unordered; worker b's loop summing the view from its end reads it: the range check would report a race, so the
// loop runs its per-access checks, which throw there under --on-race=throw, after the 23 elements above it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
}));

let sum = 0;

/** Adds the elements of a to sum, from the last. */
function add(a) {
  for (let j = a.length - 1; j !== -1; j--) sum += a[j]; // race
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => add(a),
  () => sum,
  23,
);
