// expect: race
// idiom: a loop over a Proxy of a shared Float64Array whose `get` trap releases a flag at element 2: the Proxy is no
// view (the loop's guards see no shared view), so each of its reads runs the trap, whose own element read is checked
// there. Worker 0 acquires the flag and writes element 5, which races with the trap's read of element 5 after the
// release (a new epoch of worker 1).
import { flagWorkers, raceCaught } from './sched.mjs';

/** The sum of the first n elements of `v`. */
function sum(v, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += v[j];
  return s;
}

const { main, joined, i, at, a, f } = flagWorkers(import.meta.url);
if (main) {
  await joined;
} else if (i === 1) {
  at(0, () => {
    const p = new Proxy(a, {
      get(t, k) {
        if (k === '2') Atomics.store(f, 0, 1);
        return t[k]; // race
      },
    });
    sum(a, 8);
    sum(a, 8);
    console.log(`sum ${sum(p, 8)}`);
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
    raceCaught(() => {
      a[5] = 1; // race
    }, 'worker 0');
  });
}
