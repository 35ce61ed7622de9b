// expect: no race
// idiom: a range-checked loop reading module constants (SCALE, SHIFT) from a start with a bitwise operator
// (`lo + (p & 1)`, a red-black sweep's parity): each worker scales its own half. Called before the constants are
// initialized (a function declaration is hoisted), the loop throws a ReferenceError at its first read of SCALE, after
// its first element's read, as under plain node: the guard tests that the constants are initialized before it takes
// the range check. The main thread checks the result after the joins.
import { throwsOf, workers } from './sched.mjs';

/** a[j] = a[j] * SCALE + SHIFT for j in [lo + (p & 1), hi). */
function scale(a, lo, hi, p) {
  for (let j = lo + (p & 1); j < hi; j++) a[j] = a[j] * SCALE + SHIFT;
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 72)).fill(1),
}));
const early = main ? undefined : throwsOf(() => scale(a, 36 * i, 36 * i + 32, i), ReferenceError);
if (early !== undefined && !/SCALE/.test(early.message)) throw new Error(`unexpected ${early.message}`);
const SCALE = 3;
const SHIFT = -1;
if (main) {
  await joined;
  for (const k of [0, 31, 37, 67]) if (a[k] !== 2) throw new Error(`a[${k}] = ${a[k]}`);
  for (const k of [32, 36, 68]) if (a[k] !== 1) throw new Error(`a[${k}] = ${a[k]}`);
} else {
  at(i, () => scale(a, 36 * i, 36 * i + 32, i));
}
