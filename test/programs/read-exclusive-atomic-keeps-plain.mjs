// expect: race
// idiom: an Atomics.load ordered after another thread's plain read does not replace it: a later Atomics.store races with the plain read only.
import { workers } from './sched.mjs';

const { main, joined, i, at, data, flag } = workers(import.meta.url, 3, () => ({
  data: new Int32Array(new SharedArrayBuffer(4)),
  flag: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      if (data[0] !== 0) throw new Error('early write'); // race
      Atomics.store(flag, 0, 1);
    });
  } else if (i === 1) {
    const seen = at(1, () => (Atomics.load(flag, 0) === 1 ? Atomics.load(data, 0) : -1));
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else {
    at(2, () => {
      Atomics.store(data, 0, 1); // race
    });
  }
}
