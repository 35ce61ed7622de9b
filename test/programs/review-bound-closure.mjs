// expect: race
// idiom: a covered loop whose property write runs a setter that raises the loop's bound `n` through a closure:
// worker 1 reads elements 0-7 twice (covered from then on), then loops to n = 8, its setter raising n to 16 at
// element 0; the loop then reads elements 8-15, which no earlier check covered: its read of element 12, which worker 0
// wrote unordered with it, races.
import { twoSteps } from './sched.mjs';

/** The sum of the first 8 elements of `a`, or of all 16 when `grow`; `box.at` written at each element. */
function scan(a, grow) {
  let n = 8;
  const box = {
    set at(_j) {
      if (grow) n = 16;
    },
  };
  let s = 0;
  for (let j = 0; j < n; j++) {
    if (a[j] < 0) continue; // race
    s += a[j];
    box.at = j;
  }
  return s;
}

await twoSteps(
  import.meta.url,
  16,
  (a) => {
    a[12] = 1; // race
  },
  (a) => {
    const s = scan(a, false) + scan(a, false) + scan(a, true);
    console.log(`sum ${s}`);
  },
);
