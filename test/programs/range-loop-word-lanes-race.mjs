// expect: race
// idiom: a loop over every second element of a Float64Array (`j += 2`, a stride of two words) that races: b's loop
// writes the odd elements 1, 3, …, 19 after a's unordered write of element 11. Under --on-race=throw the exception
// comes at element 11: elements 1-9 are written, 11 is a's, the even elements are untouched.
import { float64Workers, peekFloat64 } from './sched.mjs';

/** Writes `v` into the odd elements of a[0..n). */
function fillOdd(a, n, v) {
  for (let j = 1; j < n; j += 2) a[j] = v; // race
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 20);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[11] = 1; // race
  });
} else {
  at(1, () => {
    try {
      fillOdd(shared, 20, 2);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      const seen = peekFloat64(shared).join(',');
      if (seen !== '0,2,0,2,0,2,0,2,0,2,0,1,0,0,0,0,0,0,0,0')
        throw new Error(`thrown with the elements at ${seen}`);
      console.log('thrown at element 11, before its write');
    }
  });
}
