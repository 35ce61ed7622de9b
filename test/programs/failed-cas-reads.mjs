// expect: no race
// idiom: a FAILED Atomics.compareExchange still reads: it synchronizes with the Atomics.store it read from.
import { workers } from './sched.mjs';

const { main, joined, i, at, flag, data } = workers(import.meta.url, 2, () => ({
  flag: new Int32Array(new SharedArrayBuffer(4)),
  data: new Int16Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      data[1] = -300;
      Atomics.store(flag, 0, 1);
    });
  } else {
    const seen = at(1, () => (Atomics.compareExchange(flag, 0, 0, 2) === 1 ? data[1] : undefined));
    if (seen !== -300) throw new Error(`saw ${seen}`);
  }
}
