// expect: race
// idiom: mixed-size atomics: an Int8 compareExchange on byte 3 against an Int32 Atomics.add of bytes 0-3.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(8) }));
if (main) {
  await joined;
  if (new Int32Array(sab)[0] !== 0x01000001) throw new Error('lost an update');
} else {
  const bytes = new Int8Array(sab);
  const word = new Int32Array(sab);
  if (i === 0) {
    at(0, () => Atomics.compareExchange(bytes, 3, 0, 1)); // race
  } else {
    at(1, () => Atomics.add(word, 0, 1)); // race
  }
}
