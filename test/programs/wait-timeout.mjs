// expect: race
// idiom: Atomics.wait that times out (nobody notifies) and reads anyway: a timed-out wait synchronizes with nothing.
import { workers } from './sched.mjs';

const { main, joined, who, at, step, word, data } = workers(import.meta.url, ['a', 'b'], () => ({
  word: new Int32Array(new SharedArrayBuffer(4)),
  data: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (who === 'a') {
    at(0, () => {
      data[0] = 7; // race
    });
  } else {
    step(1);
    if (Atomics.wait(word, 0, 0, 5) !== 'timed-out') throw new Error('woken');
    const seen = data[0]; // race
    if (seen !== 7) throw new Error(`saw ${seen}`);
  }
}
