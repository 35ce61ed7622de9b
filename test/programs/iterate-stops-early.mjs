// expect: no race
// idiom: iteration that stops early (for…of with break, array destructuring) reads only the elements before the stop; a concurrent write to a later byte of the same word is no race.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Uint8Array(new SharedArrayBuffer(8));
  data[1] = 7;
  return { data };
});
if (main) {
  const seen = at(1, () => {
    const [first] = data; // reads element 0 only
    let at = -1;
    for (const [k, x] of data.entries()) {
      if (x === 7) {
        at = k;
        break;
      }
    }
    return [first, at];
  });
  await joined;
  if (seen.join() !== '0,1') throw new Error(`saw ${seen}`);
} else {
  at(0, () => {
    data[2] = 9; // never read by main before the join
  });
}
