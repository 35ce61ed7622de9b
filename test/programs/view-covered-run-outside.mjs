// expect: race
// idiom: a thread reads elements 1..7 of a view again and again in a loop with a conditional body (no range check:
// each access goes through the element hook), so the same-epoch filter's covered run of the view is [1, 8); then it
// reads element 0, outside the run, which another thread wrote unordered with it.
import { workers } from './sched.mjs';

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(64),
}));
const v = new Float64Array(data);
if (main) {
  await joined;
} else if (i === 0) {
  at(1, () => {
    let s = 0;
    for (let round = 0; round < 4; round++)
      for (let j = 1; j < v.length; j++) {
        if (j % 2 === 0) s += v[j];
        else s -= v[j];
      }
    if (s + v[0] !== 1) throw new Error('expected the write of step 0'); // race
  });
} else {
  at(0, () => {
    v[0] = 1; // race
  });
}
