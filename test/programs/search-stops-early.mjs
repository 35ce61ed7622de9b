// expect: no race
// idiom: indexOf, includes, find, findIndex, some and every stop at the element they look for; lastIndexOf and findLast scan from the end: none reads the byte a worker writes concurrently.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Uint8Array(new SharedArrayBuffer(8));
  data[1] = 7;
  data[6] = 5;
  return { data };
});
if (main) {
  const seen = at(1, () => [
    data.indexOf(7),
    data.includes(7),
    data.find((x) => x === 7),
    data.findIndex((x) => x > 6),
    data.some((x) => x === 7),
    data.every((x) => x !== 7),
    data.lastIndexOf(5),
    data.findLast((x) => x === 5),
    data.findLastIndex((x) => x >= 5),
  ]);
  await joined;
  if (seen.join() !== '1,true,7,1,true,false,6,5,6') throw new Error(`saw ${seen}`);
} else {
  at(0, () => {
    data[3] = 9; // between the elements the searches stop at
  });
}
