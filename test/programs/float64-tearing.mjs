// expect: race
// idiom: Float64 tearing: two workers write one Float64 element unsynchronized (a plain 8-byte write may tear).
import { workers } from './sched.mjs';

const { main, joined, i, at, f } = workers(import.meta.url, 2, () => ({
  f: new Float64Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
  if (f[0] !== -2.25) throw new Error(`f[0] is ${f[0]}`);
} else {
  if (i === 0) {
    at(0, () => {
      f[0] = 1.5; // race
    });
  } else {
    at(1, () => {
      f[0] = -2.25; // race
    });
  }
}
