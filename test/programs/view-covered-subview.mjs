// expect: race
// idiom: two views over one buffer, the first half and the whole; a thread reads every element of the half (the
// same-epoch filter then covers that view whole, not the other), then an element of the second half through the
// whole view, which another thread wrote unordered with it.
import { workers } from './sched.mjs';

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(64),
}));
const half = new Float64Array(data, 0, 4);
const whole = new Float64Array(data);
if (main) {
  await joined;
} else if (i === 0) {
  at(1, () => {
    let s = 0;
    for (let j = 0; j < half.length; j++) s += half[j];
    for (let j = 0; j < half.length; j++) s += half[j];
    if (s + whole[6] !== 1) throw new Error('expected the write of step 0'); // race
  });
} else {
  at(0, () => {
    whole[6] = 1; // race
  });
}
