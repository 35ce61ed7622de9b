// expect: no race
// idiom: a matrix product over flat Float64Arrays as users write it (`s += a[i * n + k] * b[k * n + j]`): the inner
// loop reads a row of a and a column of b (a stride of n elements: one word in each of n pages), each worker
// computing its half of the rows of c; the main thread wrote a and b before the workers started. No race.
import { workers } from './sched.mjs';

/** Rows [from, to) of c = a × b, n×n. */
function multiply(a, b, c, n, from, to) {
  for (let i = from; i < to; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

const N = 12;
const { main, joined, i, a, b, c } = workers(import.meta.url, 2, () => {
  const mk = () => new Float64Array(new SharedArrayBuffer(8 * N * N));
  const a = mk();
  const b = mk();
  for (let k = 0; k < N * N; k++) {
    a[k] = (k % 7) - 3;
    b[k] = (k % 5) - 2;
  }
  return { a, b, c: mk() };
});
if (main) {
  await joined;
  let sum = 0;
  for (let k = 0; k < N * N; k++) sum += c[k];
  console.log(`sum of the product: ${sum}`);
} else {
  multiply(a, b, c, N, (i * N) / 2, ((i + 1) * N) / 2);
}
