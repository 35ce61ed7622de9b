// expect: race
// idiom: a thread reads every element of a view (the same-epoch filter then covers the whole view), releases with
// an atomic add, and reads one element again; another thread acquires that add, then writes the element: the
// second read races with the write (a whole-view cover must end with the epoch).
import { workers } from './sched.mjs';

/** The sum of every element of `v`, each read once. */
function sum(v) {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j];
  return s;
}

const { main, joined, i, at, data, flag } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(32),
  flag: new SharedArrayBuffer(4),
}));
const v = new Uint8Array(data, 3, 13); // starts and ends inside a word
const f = new Int32Array(flag);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    sum(v);
    sum(v);
    Atomics.add(f, 0, 1);
  });
  at(2, () => {
    if (v[5] !== 7) throw new Error('expected the write of step 1'); // race
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the add of step 0');
    v[5] = 7; // race
  });
}
