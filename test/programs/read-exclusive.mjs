// expect: race
// idiom: a read ordered after another thread's read (FastTrack's [READ EXCLUSIVE] replaces it), then a third thread's unsynchronized write.
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
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flag, 0, 1);
    });
  } else if (i === 1) {
    // the store synchronizes-with this load: worker 0's read happens before this one
    const seen = at(1, () => (Atomics.load(flag, 0) === 1 ? data[0] : -1)); // race
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else {
    at(2, () => {
      data[0] = 1; // race
    });
  }
}
