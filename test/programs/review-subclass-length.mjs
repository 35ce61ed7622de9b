// expect: no race
// idiom: a TypedArray subclass whose `length` getter answers fewer elements than the view has: a loop bounded by
// `v.length` reads only those (the range check's bound must be the getter's answer, or none), so worker 1 reads
// elements 0-3 of 16, and worker 0's write of element 6, unordered with it, is no race.
import { workers } from './sched.mjs';

class Head extends Float64Array {
  get length() {
    return 4;
  }
}

/** The sum of `v`'s elements, as many as its `length` says. */
function sum(v) {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j];
  return s;
}

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(8 * 16),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    new Float64Array(data)[6] = 1;
  });
} else {
  at(1, () => {
    if (sum(new Head(data)) !== 0) throw new Error('sum');
  });
}
