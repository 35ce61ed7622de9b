// expect: no race
// idiom: sync-threads 1.0.1's result buffer used once, as the package does: the worker copies the serialized value into shared memory and publishes its length with Atomics.store and notify; the caller waits (Atomics.wait), reads the length with Atomics.load, then deserializes the bytes (v8.deserialize of a Buffer over the SharedArrayBuffer).
import { deserialize, serialize } from 'node:v8';
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(64) }));
const semaphore = new Int32Array(sab);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    const buf = serialize({ square: 9 });
    buf.copy(Buffer.from(sab), 4);
    Atomics.store(semaphore, 0, buf.length);
    Atomics.notify(semaphore, 0);
  });
} else {
  Atomics.wait(semaphore, 0, 0);
  const data = deserialize(Buffer.from(sab, 4, Atomics.load(semaphore, 0)));
  if (data.square !== 9) throw new Error(`deserialized ${JSON.stringify(data)}`);
}
