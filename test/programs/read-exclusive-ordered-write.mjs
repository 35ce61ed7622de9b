// expect: no race
// idiom: a chain read → read → write, each ordered after the one before by an atomic flag (the first read happens before the write by transitivity).
import { workers } from './sched.mjs';

const { main, joined, i, at, data, flags } = workers(import.meta.url, 3, () => ({
  data: new Int32Array(new SharedArrayBuffer(4)),
  flags: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flags, 0, 1);
    });
  } else if (i === 1) {
    at(1, () => {
      if (Atomics.load(flags, 0) !== 1 || data[0] !== 0) throw new Error('out of order');
      Atomics.store(flags, 1, 1);
    });
  } else {
    at(2, () => {
      if (Atomics.load(flags, 1) === 1) data[0] = 1;
    });
  }
}
