// expect: race
// idiom: race through JSON.stringify of a view nested in an object: b's JSON.stringify reads the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint8Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[5] = 200; // race
    });
  } else {
    const got = at(1, () => JSON.stringify({ id: 1, data: shared })); // race
    if (got !== '{"id":1,"data":{"0":0,"1":0,"2":0,"3":0,"4":0,"5":200,"6":0,"7":0}}')
      throw new Error(`got ${got}`);
  }
}
