// expect: no race
// idiom: the searches read only between where they start and where they stop: indexOf and includes from an index
// past the element a worker writes concurrently, lastIndexOf from an index below it, includes(NaN) stopping before
// it, and lastIndexOf stopping above it.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Float32Array(new SharedArrayBuffer(32));
  data[1] = Number.NaN;
  data[6] = 2;
  return { data };
});
if (main) {
  const seen = at(1, () => [
    data.indexOf(2, 4),
    data.indexOf(9, 5),
    data.includes(2, -3),
    data.lastIndexOf(0, 2),
    data.includes(Number.NaN),
    data.lastIndexOf(2),
  ]);
  await joined;
  if (seen.join() !== '6,-1,true,2,true,6') throw new Error(`saw ${seen}`);
} else {
  at(0, () => {
    data[3] = 9; // between where the searches stop
  });
}
