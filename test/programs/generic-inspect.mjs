// expect: race
// idiom: race through util.inspect of a view (as console.log formats it): b's inspect reads the element a wrote.

import { inspect } from 'node:util';
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int16Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[1] = -3; // race
    });
  } else {
    const got = at(1, () => inspect({ view: shared })); // race
    if (got !== '{ view: Int16Array(4) [ 0, -3, 0, 0 ] }') throw new Error(`got ${got}`);
  }
}
