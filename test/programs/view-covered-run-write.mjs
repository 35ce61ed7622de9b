// expect: race
// idiom: a thread reads elements 1..7 of a view again and again in a loop with conditional reads (no range check),
// so its covered run for reads is [1, 8), and none for writes; then it writes element 3, inside the read run, which
// another thread read unordered with it: the write is checked, not decided by the read run.
import { workers } from './sched.mjs';

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(128),
}));
const a = new Float64Array(data, 0, 8); // the first half of the buffer
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    if (a[3] !== 0) throw new Error('expected no write yet'); // race
  });
} else {
  at(1, () => {
    let s = 0;
    // elements 1..7, four times over, in one loop
    for (let n = 0; n < 28; n++) s = n % 7 < 3 ? s + a[1 + (n % 7)] : s - a[1 + (n % 7)];
    a[3] = s; // race
  });
}
