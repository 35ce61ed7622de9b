// expect: race
// idiom: a loop bounded by `a.length` that races: worker 0 fills the one-element subarray at element 5, then worker
// 1, unordered with it, fills all ten elements. Under --on-race=throw the exception comes at element 5 of worker
// 1's loop: elements 0-4 are written, 5 is worker 0's (the main thread reads them after the joins).
import { float64Workers } from './sched.mjs';

/** Writes `v` into every element of a. */
function fill(a, v) {
  for (let j = 0; j < a.length; j++) a[j] = v; // race
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 10);
if (main) {
  await joined;
  console.log(`elements after the joins: ${shared.join(',')}`);
} else {
  at(i, () => {
    try {
      fill(i === 0 ? shared.subarray(5, 6) : shared, 1 + i);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log(`thrown in worker ${i}'s loop`);
    }
  });
}
