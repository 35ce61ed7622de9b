// expect: race
// idiom: worker join done too late: main reads the worker's result while the worker is still running.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => ({
  data: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  const seen = at(1, () => data[0]); // race
  await joined;
  if (seen !== 11) throw new Error(`saw ${seen}`);
} else {
  at(0, () => {
    data[0] = 11; // race
  });
}
