// expect: race
// idiom: views over a shared WebAssembly.Memory (its buffer is a SharedArrayBuffer): a and b write one element unordered.
import { workers } from './sched.mjs';

const { main, joined, i, at, memory } = workers(import.meta.url, 2, () => ({
  memory: new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }),
}));
if (main) {
  await joined;
} else {
  const words = new Int32Array(memory.buffer);
  if (i === 0) {
    at(0, () => {
      words[100] = 1; // race
    });
  } else {
    at(1, () => {
      words[100] = 2; // race
    });
  }
}
