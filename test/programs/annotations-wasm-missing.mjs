// expect: race
// idiom: data handed off through a flag of WebAssembly atomics, not annotated: the runtime cannot see the flag, so the write and the read race as far as it knows.
import { workers } from './sched.mjs';
import { flag, flagMemory } from './wasm-flag.js';

const { main, joined, who, memory, data } = workers(import.meta.url, ['producer', 'consumer'], () => ({
  memory: flagMemory(),
  data: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  const ready = flag(memory);
  if (who === 'producer') {
    data[0] = 42; // race
    ready.set(1);
  } else {
    while (ready.get() === 0);
    if (data[0] !== 42) throw new Error(`read ${data[0]}`); // race
  }
}
