// expect: no race
// idiom: range-checked loops written other ways than `for (let j = LO; j < HI; j++)`: a `while` loop whose last
// statement is its update (`while (j < end) { ...; j++; }`), a `for` loop bounded by `!==` going up and going down,
// a `for` loop over a variable declared before it (`let j; for (j = lo; ...)`, its value used after the loop) and one
// with no initialization (`for (; j < end; j += 2)`): each worker writes its half of a, then doubles it, sums it and
// scales every second element; the main thread checks the sums after the joins.
import { workers } from './sched.mjs';

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)),
}));

/** Writes 1 to a[lo..end) with a while loop. @returns the index it stopped at. */
function fill(a, lo, end) {
  let j = lo;
  while (j < end) {
    a[j] = 1;
    j++;
  }
  return j;
}

/** Doubles a[lo..end) going up, then adds 1 going down, both bounded by `!==`. */
function twice(a, lo, end) {
  for (let j = lo; j !== end; j++) a[j] *= 2;
  for (let j = end - 1; j !== lo - 1; j--) a[j] += 1;
}

/** The sum of a[lo..end), its loop variable declared before the loop. @returns [sum, the variable after]. */
function sum(a, lo, end) {
  let s = 0;
  let j;
  for (j = lo; j < end; j++) s += a[j];
  return [s, j];
}

/** Multiplies every second element of a[lo..end) by k, from lo, with no initialization. */
function scaleEven(a, lo, end, k) {
  let j = lo;
  for (; j < end; j += 2) a[j] *= k;
}

if (main) {
  await joined;
  const total = a.reduce((s, x) => s + x, 0);
  if (total !== 2 * (16 * 3 + 16 * 6)) throw new Error(`sum ${total}`);
} else {
  at(i, () => {
    const lo = 32 * i;
    if (fill(a, lo, lo + 32) !== lo + 32) throw new Error(`worker ${i}: fill`);
    twice(a, lo, lo + 32);
    const [s, j] = sum(a, lo, lo + 32);
    if (s !== 96 || j !== lo + 32) throw new Error(`worker ${i}: sum ${s}, j ${j}`);
    scaleEven(a, lo, lo + 32, 2);
  });
}
