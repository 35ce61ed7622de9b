// expect: race
// idiom: a worker writes a serialized value into shared memory and another reads it with its own deserializer (new v8.Deserializer over a Buffer of the SharedArrayBuffer, readHeader then readValue) with nothing ordering the two.
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
  const data = at(1, () => {
    const d = new v8.Deserializer(Buffer.from(sab, 4, LENGTH));
    d.readHeader(); // race
    return d.readValue();
  });
  if (data.square !== 9) throw new Error(`deserialized ${JSON.stringify(data)}`);
}
