// expect: race
// idiom: an index that is not affine in the loop variable (j * j) is checked access by access: b's loop reads
// elements 0, 1, 4 and 9, the last written by a unordered with it.
import { workers } from './sched.mjs';

function squares(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += a[j * j]; // race
  return s;
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Float64Array(new SharedArrayBuffer(128)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[9] = 1; // race
  });
} else {
  at(1, () => squares(shared, 4));
}
