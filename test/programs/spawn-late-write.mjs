// expect: race
// idiom: worker start edge: main writes AFTER new Worker(), so the start does not order it before the worker's read.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => ({
  data: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  at(0, () => {
    data[0] = 3; // race
  });
  await joined;
} else {
  const seen = at(1, () => data[0]); // race
  if (seen !== 3) throw new Error(`saw ${seen}`);
}
