// expect: no race
// idiom: a loop that assigns a `const` throws a TypeError in its first iteration, after reading only element 0: it
// is checked access by access (a range check would have recorded reads of elements 0-15 that never happen), so a's
// later unordered write of element 8 does not race.
import { float64Workers, throwsOf } from './sched.mjs';

/** Throws a TypeError at the first iteration's assignment, after its read of a[0]. */
function sumInto(a, n) {
  const s = 0;
  // biome-ignore lint/correctness/noConstAssign: the point of the program
  for (let j = 0; j < n; j++) s += a[j];
  return s;
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 16);
if (main) {
  await joined;
} else if (i === 0) {
  at(1, () => {
    shared[8] = 1;
  });
} else {
  at(0, () => {
    throwsOf(() => sumInto(shared, 16), TypeError);
  });
}
