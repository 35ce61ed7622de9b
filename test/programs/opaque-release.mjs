/**
 * The set-up of the range-loop-opaque-* programs whose loop synchronizes in its middle (not a program itself: it has
 * no `// expect:` header). Worker 1 runs `run(a, release)` at step 0 (`a` a Float64Array of 8 elements, `release` an
 * `Atomics.store` of a flag, made once); worker 0 at step 1 acquires the flag and writes element 5, which races with
 * worker 1's accesses of element 5 after the release (under --on-race=throw, it throws before the write). The main
 * thread prints the elements after the joins.
 */
import { workers } from './sched.mjs';

/** The program of `file` (its `import.meta.url`), worker 1 running `run` (see the file header). */
export async function releaseThenWrite(file, run) {
  const { main, joined, i, at, data, flag } = workers(file, 2, () => ({
    data: new SharedArrayBuffer(64),
    flag: new SharedArrayBuffer(4),
  }));
  const a = new Float64Array(data);
  const f = new Int32Array(flag);
  if (main) {
    await joined;
    console.log(`elements after the joins: ${a.join(',')}`);
  } else if (i === 1)
    at(0, () =>
      run(a, () => {
        if (Atomics.load(f, 0) === 0) Atomics.store(f, 0, 1);
      }),
    );
  else
    at(1, () => {
      if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
      try {
        a[5] = 1; // race
      } catch (e) {
        if (e?.name !== 'DataRaceException') throw e;
        console.log('thrown in worker 0');
      }
    });
}
