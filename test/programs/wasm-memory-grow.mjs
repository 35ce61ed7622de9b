// expect: race
// idiom: a shared WebAssembly.Memory grown between two unordered writes of one element: a writes through a view of
// the buffer before the grow, b grows the memory and writes through a view of the new, longer buffer.
import { workers } from './sched.mjs';

const { main, joined, i, at, memory } = workers(import.meta.url, 2, () => ({
  memory: new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true }),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    const words = new Int32Array(memory.buffer);
    at(0, () => {
      words[100] = 1; // race
    });
  } else {
    at(1, () => {
      memory.grow(1);
      const words = new Int32Array(memory.buffer);
      if (words.length !== 2 * 16384) throw new Error(`length ${words.length}`);
      words[100] = 2; // race
    });
  }
}
