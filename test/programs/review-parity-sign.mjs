// expect: no race
// idiom: parity skips whose test is not a parity where `%` meets negative numbers (−1 % 2 is −1): b's loop runs
// its write for j in 1, 3, 5 only (`(j - 6) % 2 !== -1`: j - 6 in −5, −3, −1), and its second loop never (`j % 2
// !== 2`); a writes elements 7-11 unordered. No race: a range check that took either skip for every second
// iteration from its first would record writes of elements 7-11 that never happen.
import { float64Workers } from './sched.mjs';

/** Writes `v` into the elements j of a[0..n) whose j - 6 is an odd negative number. */
function oddBelowSix(a, n, v) {
  for (let j = 0; j < n; j++) {
    if ((j - 6) % 2 !== -1) continue;
    a[j] = v;
  }
}

/** Writes no element: `j % 2` is never 2. */
function never(a, n, v) {
  for (let j = 0; j < n; j++) {
    if (j % 2 !== 2) continue;
    a[j] = v;
  }
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 12);
if (main) {
  await joined;
  console.log(`elements after the joins: ${[...shared].join(',')}`);
} else if (i === 0) {
  at(1, () => {
    for (let k = 7; k < 12; k++) shared[k] = 5;
  });
} else {
  at(0, () => {
    oddBelowSix(shared, 12, 2);
    never(shared, 12, 3);
  });
}
