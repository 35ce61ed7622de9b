// expect: race
// idiom: race through object destructuring: b's const { 2: x, length } = shared reads element 2, which a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[2] = 5; // race
    });
  } else {
    const got = at(1, () => {
      const { 2: x, length } = shared; // race
      return [x, length];
    });
    if (got.join() !== '5,4') throw new Error(`got ${got}`);
  }
}
