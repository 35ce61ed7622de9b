// expect: race
// idiom: two views over one buffer in one loop (y is x shifted by 4 elements): b's loop copies y into x, reading
// element 9 of the buffer through y, which a wrote unordered with it.
import { workers } from './sched.mjs';

/** x[j] = y[j] for j < n. */
function copy(x, y, n) {
  for (let j = 0; j < n; j++) x[j] = y[j]; // race
}

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(128),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    new Float64Array(buffer)[9] = 1; // race
  });
} else {
  at(1, () => copy(new Float64Array(buffer, 0, 8), new Float64Array(buffer, 32, 8), 8));
}
