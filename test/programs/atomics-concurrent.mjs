// expect: no race
// idiom: unordered atomics of equal ranges never race: add/sub/exchange/compareExchange/or on Int32 and BigInt64 elements.
import { workers } from './sched.mjs';

const { main, joined, i, at, i32, big } = workers(import.meta.url, 2, () => ({
  i32: new Int32Array(new SharedArrayBuffer(8)),
  big: new BigInt64Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
  if (i32[0] !== 8 || big[0] !== 6n) throw new Error(`${i32[0]} ${big[0]}`);
} else {
  for (let round = 0; round < 3; round++) {
    at(2 * round + i, () => {
      Atomics.add(i32, 0, 3);
      Atomics.sub(i32, 0, 1);
      Atomics.or(i32, 1, 1 << i);
      Atomics.add(big, 0, 1n);
      Atomics.compareExchange(i32, 1, 3, 3);
    });
  }
  at(6 + i, () => Atomics.exchange(i32, 0, Atomics.load(i32, 0) - 2));
}
