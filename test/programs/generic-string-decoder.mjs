// expect: race
// idiom: race through StringDecoder#write of a Buffer over shared memory (thread-stream's worker reads its ring this way) while another worker writes a byte of it.
import { StringDecoder } from 'node:string_decoder';
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const bytes = Buffer.from(new SharedArrayBuffer(4));
  bytes.write('ok');
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, bytes, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { bytes, i } = workerData;
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
