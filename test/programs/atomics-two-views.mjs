// expect: race
// idiom: one thread's atomic operations through two views of one buffer at other offsets: a's Atomics.add on the second view and b's plain write of that element are unordered.
import { workers } from './sched.mjs';

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(16),
}));
if (main) {
  await joined;
} else {
  const low = new Int32Array(buffer, 0, 1);
  const high = new Int32Array(buffer, 8, 1);
  if (i === 0) {
    at(0, () => {
      Atomics.add(low, 0, 1);
      Atomics.add(high, 0, 1); // race
      Atomics.add(low, 0, 1);
    });
  } else {
    at(1, () => {
      high[0] = 5; // race
    });
  }
}
