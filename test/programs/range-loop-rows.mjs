// expect: no race
// idiom: a row handed from thread to thread (an Atomics store, then load) and read and written by range-checked loops
// on each side, so that its pages hold records of both threads and the run's later pages point to the first page's
// recorded list (sor's rows): every access is ordered after the other thread's, no race.
import { workers } from './sched.mjs';

const { main, joined, i, at, cells, turn } = workers(import.meta.url, 2, () => ({
  cells: new Float64Array(new SharedArrayBuffer(8 * 80)),
  turn: new Int32Array(new SharedArrayBuffer(4)),
}));
/** Reads the row, then writes it from what it read: range-checked loops. */
function relay(row) {
  let total = 0;
  for (let j = 0; j < 80; j++) total += row[j];
  for (let j = 0; j < 80; j++) row[j] = total / 80 + j;
}

if (main) {
  await joined;
} else {
  // thread 0 at steps 0, 2, 4; thread 1 at steps 1, 3, each after the other's store
  for (let k = i; k < 5; k += 2)
    at(k, () => {
      if (Atomics.load(turn, 0) !== k) throw new Error(`turn ${Atomics.load(turn, 0)}, not ${k}`);
      relay(cells);
      Atomics.store(turn, 0, k + 1);
    });
}
