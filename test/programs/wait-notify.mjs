// expect: no race
// idiom: Atomics.wait/notify hand-off: b sleeps in Atomics.wait, a writes then notifies until one waiter wakes.
import { workers } from './sched.mjs';

const { main, joined, who, at, sleep, step, next, word, data } = workers(import.meta.url, ['a', 'b'], () => ({
  word: new Int32Array(new SharedArrayBuffer(4)),
  data: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (who === 'a') {
    at(1, () => {
      data[0] = 2.5;
      data[1] = -1;
      // The only edge: this notify → b's woken wait (word never changes, so b can only be woken).
      while (Atomics.notify(word, 0, 1) !== 1) sleep(1);
    });
  } else {
    step(0);
    next();
    const r = Atomics.wait(word, 0, 0);
    if (r !== 'ok' || data[0] !== 2.5 || data[1] !== -1) throw new Error(`${r} ${data}`);
  }
}
