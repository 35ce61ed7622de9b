// expect: race
// idiom: includes of a value that is not there reads every element: one written concurrently by a worker races.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Uint8Array(new SharedArrayBuffer(8));
  data[1] = 7;
  return { data };
});
if (main) {
  const found = at(1, () => data.includes(8)); // race
  await joined;
  if (found) throw new Error('found 8');
} else {
  at(0, () => {
    data[3] = 9; // race
  });
}
