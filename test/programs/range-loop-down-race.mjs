// expect: race
// idiom: a loop going down (`for (let j = n - 1; j >= 0; j--)`) that races: b's loop writes elements 19 down to 0
// after a's unordered write of element 11. Under --on-race=throw the exception comes at element 11: elements 19-12
// are written, 11 is a's, 10-0 untouched.
import { float64Workers, peekFloat64 } from './sched.mjs';

/** Writes `v` into a[n - 1], a[n - 2], …, a[0]. */
function fillDown(a, n, v) {
  for (let j = n - 1; j >= 0; j--) a[j] = v; // race
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
      fillDown(shared, 20, 2);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      const seen = peekFloat64(shared).join(',');
      if (seen !== '0,0,0,0,0,0,0,0,0,0,0,1,2,2,2,2,2,2,2,2')
        throw new Error(`thrown with the elements at ${seen}`);
      console.log('thrown at element 11, before its write');
    }
  });
}
