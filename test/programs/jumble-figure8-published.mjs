// expect: no race
// idiom: Figure 8 of Jumble made race-free: the "object" (a plain Int32 id) is published by an Atomics.store of a flag and used after an Atomics.load of it, so no read has an older value to return under any heuristic.
import { workers } from './sched.mjs';

const { main, joined, i, at, x } = workers(import.meta.url, 2, () => ({
  x: new Int32Array(new SharedArrayBuffer(8)),
}));
/** `circle.draw()`: the object must not be null. */
const draw = (circle) => {
  if (circle === 0) throw new TypeError('Cannot read properties of null (reading draw)');
};
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    x[1] = 7;
    Atomics.store(x, 0, 1);
  });
} else {
  at(1, () => {
    for (let k = 0; k < 10; k++) {
      if (Atomics.load(x, 0) === 1) draw(x[1]);
    }
  });
}
