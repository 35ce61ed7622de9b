// expect: race
// idiom: a range-checked loop that races: b's loop writes elements 0-9 after a's unordered write of element 5.
// Under --on-race=throw the exception comes at element 5 of the loop: elements 0-4 are written, 5 is a's.
import { float64Workers, peekFloat64 } from './sched.mjs';

/** Writes `v` into a[lo..hi). */
function fill(a, lo, hi, v) {
  for (let j = lo; j < hi; j++) a[j] = v; // race
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 10);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[5] = 1; // race
  });
} else {
  at(1, () => {
    try {
      fill(shared, 0, 10, 2);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      const seen = peekFloat64(shared).join(',');
      if (seen !== '2,2,2,2,2,1,0,0,0,0') throw new Error(`thrown with the elements at ${seen}`);
      console.log('thrown at element 5, before its write');
    }
  });
}
