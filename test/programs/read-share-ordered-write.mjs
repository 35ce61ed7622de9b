// expect: race
// idiom: two unordered reads (FastTrack's [READ SHARE] keeps both), then a write ordered after the second read only.
import { workers } from './sched.mjs';

const { main, joined, i, at, data, flag } = workers(import.meta.url, 3, () => ({
  data: new Int32Array(new SharedArrayBuffer(4)),
  flag: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    const seen = at(0, () => data[0]); // race
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else if (i === 1) {
    at(1, () => {
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flag, 0, 1);
    });
  } else {
    at(2, () => {
      // ordered after worker 1's read by the flag, not after worker 0's
      if (Atomics.load(flag, 0) === 1) data[0] = 1; // race
    });
  }
}
