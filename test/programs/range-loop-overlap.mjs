// expect: race
// idiom: views over overlapping ranges (hi starts at element 4 of lo): b's loop reads lo and writes hi, writing
// element 6 of lo through hi[2], which a read unordered with it.
import { workers } from './sched.mjs';

/** hi[j] = lo[j] + 1 for j < n. */
function shift(lo, hi, n) {
  for (let j = 0; j < n; j++) hi[j] = lo[j] + 1; // race
}

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(128),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => new Float64Array(buffer)[6]); // race
} else {
  at(1, () => shift(new Float64Array(buffer, 0, 8), new Float64Array(buffer, 32, 8), 4));
}
