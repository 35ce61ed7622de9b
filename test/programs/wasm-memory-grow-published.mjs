// expect: no race
// idiom: a shared WebAssembly.Memory grown after a published write: a writes an element and Atomics.stores a flag;
// b Atomics.loads the flag, grows the memory and writes the element through a view of the new buffer.
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
      words[100] = 1;
      Atomics.store(words, 0, 1);
    });
  } else {
    at(1, () => {
      if (Atomics.load(new Int32Array(memory.buffer), 0) !== 1) throw new Error('not published');
      memory.grow(1);
      const words = new Int32Array(memory.buffer);
      words[100] = 2;
    });
  }
}
