// expect: race
// idiom: a loop bounded by `a.length` that races: b's loop writes elements 0-9 after a's unordered write of element
// 5. Under --on-race=throw the exception comes at element 5 of the loop: elements 0-4 are written, 5 is a's (the
// main thread reads them after the joins).
import { float64Workers } from './sched.mjs';

/** Writes `v` into every element of a. */
function fill(a, v) {
  for (let j = 0; j < a.length; j++) a[j] = v; // race
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 10);
if (main) {
  await joined;
  console.log(`elements after the joins: ${shared.join(',')}`);
} else if (i === 0) {
  at(0, () => {
    shared[5] = 1; // race
  });
} else {
  at(1, () => {
    try {
      fill(shared, 2);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log('thrown in the loop');
    }
  });
}
