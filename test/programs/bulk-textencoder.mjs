// expect: race
// idiom: race through TextEncoder.encodeInto() writing into shared memory while another worker reads a byte of it.
import { workers } from './sched.mjs';

const { main, joined, i, at, bytes } = workers(import.meta.url, 2, () => ({
  bytes: new Uint8Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    const seen = at(0, () => bytes[1]); // race
    if (seen !== 0) throw new Error(`read ${seen}`);
  } else {
    const { written } = at(1, () => new TextEncoder().encodeInto('ok', bytes)); // race
    if (written !== 2) throw new Error(`wrote ${written}`);
  }
}
