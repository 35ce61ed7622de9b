// expect: race
// idiom: lastIndexOf reads from its start down to the element it stops at: a worker writing that element
// concurrently races.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Int16Array(new SharedArrayBuffer(16));
  data[2] = -3;
  return { data };
});
if (main) {
  const found = at(1, () => data.lastIndexOf(-3, 6)); // race
  await joined;
  if (found !== 2) throw new Error(`found ${found}`);
} else {
  at(0, () => {
    data[2] = -3; // race
  });
}
