// expect: no race
// idiom: data handed off through a flag of WebAssembly atomics (invisible to the runtime), annotated: happensBefore('data') before the flag is set, happensAfter('data') after it is seen.
import { happensAfter, happensBefore } from 'goldilocks/annotations';
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
    data[0] = 42;
    happensBefore('data');
    ready.set(1);
  } else {
    while (ready.get() === 0);
    happensAfter('data');
    if (data[0] !== 42) throw new Error(`read ${data[0]}`);
  }
}
