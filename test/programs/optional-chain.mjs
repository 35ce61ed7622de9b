// expect: race
// idiom: a shared element read through an optional chain (`box?.data[0]`) races with a worker's unordered write like any other read.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => ({
  data: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  const box = { data };
  const none = null;
  const seen = at(1, () => [none?.data[0], box?.data[0]]); // race
  await joined;
  if (seen[0] !== undefined || seen[1] !== 4) throw new Error(`saw ${seen}`);
} else {
  at(0, () => {
    data[0] = 4; // race
  });
}
