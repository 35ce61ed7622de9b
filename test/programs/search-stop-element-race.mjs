// expect: race
// idiom: indexOf reads the element it stops at: a worker writing that element concurrently races (the search finds
// it, then the elements it read are checked before it returns: src/live/intercept/typed-array.ts).
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Uint8Array(new SharedArrayBuffer(8));
  data[5] = 7;
  return { data };
});
if (main) {
  const found = at(1, () => data.indexOf(7, 2)); // race
  await joined;
  if (found !== 5) throw new Error(`found ${found}`);
} else {
  at(0, () => {
    data[5] = 7; // race
  });
}
