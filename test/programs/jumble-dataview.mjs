// expect: race
// idiom: Figure 8 of Jumble (PLDI'10) through a DataView: a check-then-use loop reads a racily published "object" (a big-endian Int32 id) with DataView#getInt32, written with DataView#setInt32; the check can see it and the use the initial 0 (a null dereference) — legal in ECMA-262, exposed only if DataView reads are jumbled.
import { workers } from './sched.mjs';

const { main, joined, i, at, x } = workers(import.meta.url, 2, () => ({
  x: new DataView(new SharedArrayBuffer(8)),
}));
/** `circle.draw()`: the object must not be null. */
const draw = (circle) => {
  if (circle === 0) throw new TypeError('Cannot read properties of null (reading draw)');
};
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    x.setInt32(4, 7); // race
  });
} else {
  at(1, () => {
    for (let k = 0; k < 10; k++) {
      if (x.getInt32(4) !== 0) draw(x.getInt32(4)); // race
    }
  });
}
