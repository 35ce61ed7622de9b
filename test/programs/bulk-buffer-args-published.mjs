// expect: no race
// idiom: Buffer methods reading a shared argument after it was published (Atomics.store, then Atomics.load): local.fill(shared), local.equals(shared), local.compare(shared), local.indexOf(shared) on non-shared receivers.
import { workers } from './sched.mjs';

const { main, joined, i, at, flag, sab } = workers(import.meta.url, 2, () => ({
  flag: new Int32Array(new SharedArrayBuffer(4)),
  sab: new SharedArrayBuffer(4),
}));
if (main) {
  await joined;
} else {
  const shared = Buffer.from(sab);
  if (i === 0) {
    at(0, () => {
      shared.write('abcd', 'latin1');
      Atomics.store(flag, 0, 1);
    });
  } else {
    const found = at(1, () => {
      if (Atomics.load(flag, 0) !== 1) return 'not published';
      const local = Buffer.alloc(8);
      local.fill(shared);
      return [
        local.toString('latin1'),
        local.equals(shared),
        local.compare(shared),
        local.indexOf(shared, 1),
      ].join();
    });
    if (found !== 'abcdabcd,false,1,4') throw new Error(`found ${found}`);
  }
}
