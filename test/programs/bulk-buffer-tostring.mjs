// expect: race
// idiom: race through Buffer.from(sab).toString(): b decodes bytes a is writing.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => {
  const sab = new SharedArrayBuffer(8);
  new Uint8Array(sab).set([0x68, 0x65, 0x6c, 0x6c, 0x6f]); // 'hello'
  return { sab };
});
if (main) {
  await joined;
} else {
  if (i === 0) {
    const bytes = new Uint8Array(sab);
    at(0, () => {
      bytes[0] = 0x4a; // race
    });
  } else {
    const text = at(1, () => Buffer.from(sab, 0, 5).toString('latin1')); // race
    if (text !== 'Jello') throw new Error(`decoded ${text}`);
  }
}
