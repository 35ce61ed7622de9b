// expect: no race
// idiom: a red-black sweep's loops over a Float64Array (`j += 2`, a stride of two words): worker 0 relaxes the even
// elements, worker 1 the odd ones, both over the whole array at once, each reading only its own lane; every page
// holds words of both. No race: the lanes never share an element. The main thread sums after the joins.
import { workers } from './sched.mjs';

/** Relaxes the elements `first`, `first + 2`, … of `a` below `n` towards their lane neighbours. */
function relax(a, first, n) {
  for (let j = first + 2; j < n - 2; j += 2) a[j] = (a[j - 2] + a[j] + a[j + 2]) / 3;
}

/** The elements `first`, `first + 2`, … of `a` below `n`, summed. */
function lane(a, first, n) {
  let s = 0;
  for (let j = first; j < n; j += 2) s += a[j];
  return s;
}

const N = 64;
const { main, joined, i, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * N)).fill(3),
}));
if (main) {
  await joined;
  const sum = lane(a, 0, N) + lane(a, 1, N);
  if (Math.abs(sum - 3 * N) > 1e-9) throw new Error(`sum ${sum}`);
  console.log('lanes relaxed: the sum kept');
} else {
  for (let round = 0; round < 4; round++) relax(a, i, N);
}
