// expect: race
// idiom: Atomics.wait/notify hand-off where the notifier writes after notifying: the wake-up orders nothing after it.
import { workers } from './sched.mjs';

const { main, joined, who, at, sleep, step, next, word, data } = workers(import.meta.url, ['a', 'b'], () => ({
  word: new Int32Array(new SharedArrayBuffer(4)),
  data: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (who === 'a') {
    at(1, () => {
      while (Atomics.notify(word, 0, 1) !== 1) sleep(1);
      data[0] = 42; // race
    });
  } else {
    step(0);
    next();
    if (Atomics.wait(word, 0, 0) !== 'ok') throw new Error('not woken');
    const seen = at(2, () => data[0]); // race
    if (seen !== 42) throw new Error(`saw ${seen}`);
  }
}
