// expect: race
// idiom: range-checked loops over a row whose pages hold two records of one thread (its write, then its read, as
// sor's rows): the run's pages point to the first page's recorded list. b's read of an element of a later page is
// ordered after a's earlier loops (an Atomics store and load) but not after a's last write loop: it races with it.
import { workers } from './sched.mjs';

/** Writes v + j into a[j], j in [0, 64): a range-checked loop. */
function write(a, v) {
  for (let j = 0; j < 64; j++) a[j] = v + j; // race
}

/** The sum of a[0..64): a range-checked loop. */
function sum(a) {
  let s = 0;
  for (let j = 0; j < 64; j++) s += a[j];
  return s;
}

const { main, joined, i, at, row, flag } = workers(import.meta.url, 2, () => ({
  row: new Float64Array(new SharedArrayBuffer(8 * 64)),
  flag: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    let s = 0;
    for (let round = 0; round < 3; round++) {
      write(row, round);
      Atomics.add(flag, 1, 1); // a new epoch: the read below is recorded beside the write
      s += sum(row);
      Atomics.add(flag, 1, 1);
    }
    Atomics.store(flag, 0, s);
  });
  at(2, () => {
    write(row, 10); // the pages' lists are this thread's read and write: all point to the first page's new list
  });
} else {
  at(1, () => {
    if (Atomics.load(flag, 0) === 0) throw new Error('not ordered after the first loops');
  });
  at(3, () => {
    if (row[37] !== 47) throw new Error(`element 37 is ${row[37]}`); // race
  });
}
