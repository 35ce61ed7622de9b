// expect: race
// idiom: a range-checked loop reading a module constant (SCALE) from a start with a bitwise operator (see
// range-loop-module-constant.mjs), racing: worker a writes element 40 unordered; worker b's loop over [36 + (p & 1),
// 68) reads it: the range check would report a race, so the loop runs its per-access checks, which throw there under
// --on-race=throw, after the elements before it were scaled.
import { workers } from './sched.mjs';

const SCALE = 3;

/** a[j] = a[j] * SCALE for j in [lo + (p & 1), hi). */
function scale(a, lo, hi, p) {
  for (let j = lo + (p & 1); j < hi; j++) a[j] = a[j] * SCALE; // race
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 72)).fill(1),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    a[40] = 5; // race
  });
} else {
  at(1, () => {
    try {
      scale(a, 36, 68, 1);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      if (a[39] !== 3) throw new Error(`thrown before element 39 was scaled: ${a[39]}`);
      console.log('DataRaceException at element 40');
    }
  });
}
