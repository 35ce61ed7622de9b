// expect: race
// idiom: SPSC ring whose producer publishes the head index with a plain store: the consumer's Atomics.load races with it.
import { workers } from './sched.mjs';

const [HEAD, TAIL, CAP] = [0, 1, 4];

const { main, joined, who, at, ctl, slots } = workers(import.meta.url, ['producer', 'consumer'], () => ({
  ctl: new Int32Array(new SharedArrayBuffer(8)),
  slots: new Int32Array(new SharedArrayBuffer(4 * CAP)),
}));
if (main) {
  await joined;
} else {
  let mine = 0;
  if (who === 'producer') {
    at(0, () => {
      if (mine - Atomics.load(ctl, TAIL) === CAP) throw new Error('full');
      slots[mine % CAP] = 33;
      ctl[HEAD] = ++mine; // race
    });
  } else {
    const v = at(1, () => {
      if (Atomics.load(ctl, HEAD) === mine) return undefined; // race
      const v = slots[mine % CAP];
      Atomics.store(ctl, TAIL, ++mine);
      return v;
    });
    if (v !== 33) throw new Error(`popped ${v}`);
  }
}
