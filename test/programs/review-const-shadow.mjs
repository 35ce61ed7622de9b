// expect: race
// idiom: a module number constant `K` (3) read as a literal by covered loops, shadowed in `every` by a local `K` (5),
// and a global `K` (a property of the global object, not the module's binding) set to 5: worker 1 reads every third
// element (0-12) three times, then every fifth (0-20) in a covered loop; the cover check must use the local 5, not the
// module's 3 (elements 0-12 step 3 are covered, 0-20 step 5 are not), so the read of element 10, which worker 0 wrote
// unordered with it, is checked and races.
import { twoSteps } from './sched.mjs';

const K = 3;

/** The sum of a[K * j] for j < n, skipping negative elements (K the module's). */
function third(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) {
    if (a[K * j] < 0) continue;
    s += a[K * j];
  }
  return s;
}

/** The sum of a[K * j] for j < n, skipping negative elements (K a local of 5). */
function every(a, n) {
  const K = 5;
  let s = 0;
  for (let j = 0; j < n; j++) {
    if (a[K * j] < 0) continue; // race
    s += a[K * j];
  }
  return s;
}

await twoSteps(
  import.meta.url,
  32,
  (a) => {
    a[10] = 1; // race
  },
  (a) => {
    globalThis.K = 5;
    let s = third(a, 5) + third(a, 5) + third(a, 5);
    s += every(a, 5);
    console.log(`sum ${s}`);
  },
);
