// expect: race
// idiom: Figure 8 of Jumble (PLDI'10): a check-then-use loop on a racily published "object" (a plain Int32 id): each iteration reads it twice, so the check can see it and the use the initial 0 (a null dereference) — legal in ECMA-262, never seen under plain node.
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
    x[0] = 7; // race
  });
} else {
  at(1, () => {
    for (let k = 0; k < 10; k++) {
      if (x[0] !== 0) draw(x[0]); // race
    }
  });
}
