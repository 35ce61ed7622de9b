// expect: no race
// idiom: mixed atomic/non-atomic READS of one element (written before the workers started): reads never race.
import { workers } from './sched.mjs';

const { main, joined, i, at, v } = workers(import.meta.url, 2, () => {
  const v = new Int32Array(new SharedArrayBuffer(4));
  v[0] = 99;
  return { v };
});
if (main) {
  await joined;
} else {
  const seen = at(i, () => (i === 0 ? Atomics.load(v, 0) : v[0]));
  if (seen !== 99) throw new Error(`saw ${seen}`);
}
