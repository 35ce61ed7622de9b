// expect: race
// idiom: loops bounded by `a.length` that race: worker 0 fills the inside of the subarray of elements 4-6 (element
// 5, a loop to `a.length - 1`), then worker 1, unordered with it, fills all ten elements. Under --on-race=throw
// the exception comes at element 5 of worker 1's loop: elements 0-4 are written, 5 is worker 0's (the main thread
// reads them after the joins).
import { float64Workers } from './sched.mjs';

/** Writes `v` into every element of a. */
function fill(a, v) {
  for (let j = 0; j < a.length; j++) a[j] = v; // race
}

/** Writes `v` into a[1..a.length - 1). */
function inside(a, v) {
  for (let j = 1; j < a.length - 1; j++) a[j] = v; // race
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 10);
if (main) {
  await joined;
  console.log(`elements after the joins: ${shared.join(',')}`);
} else {
  at(i, () => {
    try {
      if (i === 0) inside(shared.subarray(4, 7), 1);
      else fill(shared, 2);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log(`thrown in worker ${i}'s loop`);
    }
  });
}
