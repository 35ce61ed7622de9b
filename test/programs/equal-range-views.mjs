// expect: no race
// idiom: atomics through different views (Int32/Uint32, Int16/Uint16, offset views) over EQUAL byte ranges never race.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(12) }));
if (main) {
  await joined;
  if (new Int32Array(sab)[1] !== 6 || new Uint16Array(sab)[4] !== 0xffff) throw new Error('lost an update');
} else {
  if (i === 0) {
    at(0, () => {
      Atomics.store(new Int32Array(sab), 1, 5);
      Atomics.store(new Int16Array(sab, 8), 0, -1);
    });
  } else {
    at(1, () => {
      Atomics.add(new Uint32Array(sab, 4, 1), 0, 1);
      if (Atomics.load(new Uint16Array(sab, 8), 0) !== 0xffff) throw new Error('not 0xffff');
    });
  }
}
