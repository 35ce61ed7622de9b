// expect: no race
// idiom: the usual flag + wait/notify: a stores the flag with Atomics.store and notifies; b loops on load + wait.
import { workers } from './sched.mjs';

const { main, joined, who, at, sleep, step, next, flag, data } = workers(import.meta.url, ['a', 'b'], () => ({
  flag: new Int32Array(new SharedArrayBuffer(4)),
  data: new Uint16Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (who === 'a') {
    at(1, () => {
      sleep(5); // b is most likely asleep by now; either way the flag orders the data
      data.set([1, 2, 3, 4]);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
  } else {
    step(0);
    next();
    while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0);
    const sum = data[0] + data[1] + data[2] + data[3];
    if (sum !== 10) throw new Error(`sum ${sum}`);
  }
}
