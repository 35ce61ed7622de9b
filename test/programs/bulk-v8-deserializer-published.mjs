// expect: no race
// idiom: the serialized value published with Atomics.store and notify, then read by a subclass of v8.DefaultDeserializer after Atomics.wait and Atomics.load: the deserializer's reads are ordered after the copy.
import { DefaultDeserializer, serialize } from 'node:v8';
import { workers } from './sched.mjs';

class Reader extends DefaultDeserializer {}
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
  const d = new Reader(Buffer.from(sab, 4, Atomics.load(semaphore, 0)));
  if (!(d instanceof DefaultDeserializer))
    throw new Error('a subclass of the proxy is still a DefaultDeserializer');
  d.readHeader();
  const data = d.readValue();
  if (data.square !== 9) throw new Error(`deserialized ${JSON.stringify(data)}`);
}
