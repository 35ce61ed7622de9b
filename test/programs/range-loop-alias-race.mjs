// expect: race
// idiom: a loop indexing through a const of its body that races: b's loop reads a[i] for i = 3j + 1, j from 0 to 5
// (elements 1, 4, 7, 10, 13, 16), after a's unordered write of element 7: the range check would report a race, so
// the loop runs its per-access checks, which report it at element 7.
import { workers } from './sched.mjs';

/** The sum of a[3j + 1] for j in [0, n). */
function sumEveryThird(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) {
    const i = 3 * j + 1;
    s += a[i]; // race
  }
  return s;
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Float64Array(new SharedArrayBuffer(256)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[7] = 2; // race
  });
} else {
  at(1, () => console.log(`sum: ${sumEveryThird(shared, 6)}`));
}
