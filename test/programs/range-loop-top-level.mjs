// expect: no race
// idiom: a worker module's loops written at its top level, over the module's own top-level bindings (no function
// around them): each worker doubles its half of a shared Float64Array, then adds the element below each of its
// elements going down. No race: the halves are disjoint. The main thread sums after the joins.
import { workers } from './sched.mjs';

const N = 64;
const { main, joined, i, a } = workers(import.meta.url, 2, () => {
  const a = new Float64Array(new SharedArrayBuffer(8 * N));
  for (let k = 0; k < N; k++) a[k] = k;
  return { a };
});
const lo = (i * N) / 2;
const hi = ((i ?? 0) + 1) * (N / 2);
if (main) {
  await joined;
  let sum = 0;
  for (let k = 0; k < N; k++) sum += a[k];
  console.log(`sum after the joins: ${sum}`);
} else {
  for (let j = lo; j < hi; j++) a[j] = 2 * a[j];
  for (let j = hi - 1; j > lo; j--) a[j] = a[j] + a[j - 1];
}
