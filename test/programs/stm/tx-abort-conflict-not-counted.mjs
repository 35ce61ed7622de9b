// expect: no race
// idiom: goldilocks/stm: an attempt aborted by a conflict leaves no trace: its write of `x` is never checked, only the retry's accesses are
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, step, next, at, stm, a, x } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  a: new Int32Array(new SharedArrayBuffer(8)),
  x: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  const s = STM.from(stm);
  step(0);
  let attempts = 0;
  s.atomic((tx) => {
    const v = tx.read(a, 0);
    if (++attempts === 1) {
      tx.write(x, 0, 1);
      next(); // the other worker commits a write of `a` now: this attempt fails its validation
      step(2);
    }
    tx.write(a, 0, v + 1);
  });
  if (attempts !== 2) throw new Error(`${attempts} attempts`);
  next();
} else {
  const s = STM.from(stm);
  at(1, () => s.atomic((tx) => tx.write(a, 0, 10)));
  at(3, () => (x[0] = 2));
}
