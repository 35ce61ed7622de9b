// expect: no race
// idiom: two unordered reads (read-shared), then a write ordered after both by two atomic flags.
import { workers } from './sched.mjs';

const { main, joined, i, at, data, flags } = workers(import.meta.url, 3, () => ({
  data: new Int32Array(new SharedArrayBuffer(4)),
  flags: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (i < 2) {
    at(i, () => {
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flags, i, 1);
    });
  } else {
    at(2, () => {
      if (Atomics.load(flags, 0) === 1 && Atomics.load(flags, 1) === 1) data[0] = 1;
    });
  }
}
