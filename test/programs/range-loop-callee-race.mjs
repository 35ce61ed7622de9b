// expect: race
// idiom: a loop calling a pure function of the module reads element 5, which a wrote unordered before it: the range
// check would report a race, so the loop runs its per-access checks, which report it at element 5.
import { float64Workers } from './sched.mjs';

/** x², wrapped to 16 bits. */
function square(x) {
  return (x * x) & 0xffff;
}

/** The sum of square(a[j]) for j in [0, n). */
function sumSquares(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += square(a[j]); // race
  return s;
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 16);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[5] = 3; // race
  });
} else {
  at(1, () => console.log(`sum: ${sumSquares(shared, 16)}`));
}
