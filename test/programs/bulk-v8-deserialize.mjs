// expect: race
// idiom: a worker writes a serialized value into shared memory (Buffer#copy) and another deserializes it (v8.deserialize of a Buffer over the SharedArrayBuffer) with nothing ordering the two: sync-threads 1.0.1's result buffer without the wait.
import v8 from 'node:v8';
import { workers } from './sched.mjs';

const VALUE = { square: 9 };
const LENGTH = v8.serialize(VALUE).length;
const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(64) }));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    v8.serialize(VALUE).copy(Buffer.from(sab), 4); // race
  });
} else {
  const data = at(1, () => v8.deserialize(Buffer.from(sab, 4, LENGTH))); // race
  if (data.square !== 9) throw new Error(`deserialized ${JSON.stringify(data)}`);
}
