// expect: no race
// idiom: single-producer/single-consumer ring: plain slot accesses, head and tail published with Atomics.store.
import { workers } from './sched.mjs';

const [HEAD, TAIL, CAP] = [0, 1, 2];

const { main, joined, who, at, ctl, slots } = workers(import.meta.url, ['producer', 'consumer'], () => ({
  ctl: new Int32Array(new SharedArrayBuffer(8)),
  slots: new Float64Array(new SharedArrayBuffer(8 * CAP)),
}));
if (main) {
  await joined;
} else {
  let mine = 0; // the producer's head or the consumer's tail (only its owner writes it)
  const push = (v) => {
    if (mine - Atomics.load(ctl, TAIL) === CAP) return false;
    slots[mine % CAP] = v;
    Atomics.store(ctl, HEAD, ++mine);
    return true;
  };
  const pop = () => {
    if (Atomics.load(ctl, HEAD) === mine) return undefined;
    const v = slots[mine % CAP];
    Atomics.store(ctl, TAIL, ++mine);
    return v;
  };
  const got = [];
  for (let round = 0; round < 2; round++) {
    if (who === 'producer') {
      at(2 * round, () => {
        if (!push(round + 0.5) || !push(round + 0.25) || push(-1)) throw new Error('ring capacity');
      });
    } else {
      at(2 * round + 1, () => got.push(pop(), pop(), pop()));
    }
  }
  if (who === 'consumer' && got.join() !== '0.5,0.25,,1.5,1.25,') throw new Error(`got ${got}`);
}
