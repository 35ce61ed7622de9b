// expect: race
// idiom: race through TextDecoder.decode() of a view over shared memory while another worker writes a byte of it.
import { workers } from './sched.mjs';

const { main, joined, i, at, bytes } = workers(import.meta.url, 2, () => {
  const bytes = new Uint8Array(new SharedArrayBuffer(4));
  bytes.set([0x6f, 0x6b]); // 'ok'
  return { bytes };
});
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      bytes[1] = 0x66; // race
    });
  } else {
    const text = at(1, () => new TextDecoder().decode(bytes.subarray(0, 2))); // race
    if (text !== 'of') throw new Error(`decoded ${text}`);
  }
}
