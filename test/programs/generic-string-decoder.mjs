// expect: race
// idiom: race through StringDecoder#write of a Buffer over shared memory (thread-stream's worker reads its ring this way) while another worker writes a byte of it.
import { StringDecoder } from 'node:string_decoder';
import { workers } from './sched.mjs';

const { main, joined, i, at, bytes } = workers(import.meta.url, 2, () => {
  const bytes = Buffer.from(new SharedArrayBuffer(4));
  bytes.write('ok');
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
    const data = Buffer.from(bytes.buffer);
    const decoder = new StringDecoder('utf8');
    const text = at(1, () => decoder.write(data.subarray(0, 2))); // race
    if (text !== 'of') throw new Error(`decoded ${text}`);
  }
}
