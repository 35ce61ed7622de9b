// expect: race
// idiom: a range-checked for…of loop that races: worker 0 writes element 40 unordered; worker 1's for…of summing
// the whole view reads it: the range check would report a race, so the loop runs as written, its elements checked
// one by one by the iterator, which throws at element 40 under --on-race=throw after the elements before it were
// summed.
import { stopsAtElement40, workers } from './sched.mjs';

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
}));

let sum = 0;

/** Adds the elements of v to sum. */
function add(v) {
  for (const x of v) sum += x; // race
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
