// expect: race
// idiom: spreading a shared view reads every element: one written concurrently by a worker races.
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => ({
  data: new Uint8Array(new SharedArrayBuffer(8)),
}));
if (main) {
  const copy = at(1, () => [...data]); // race
  await joined;
  if (copy[2] !== 9) throw new Error(`saw ${copy}`);
} else {
  at(0, () => {
    data[2] = 9; // race
  });
}
