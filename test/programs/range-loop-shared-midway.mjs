// expect: race
// idiom: the main thread fills a buffer in two range-checked loops, the first before it starts the worker (ordered
// by the fork), the second after (unordered): the worker's read of element 12 races, its read of element 2 does not.
// Eight elements each: a range check takes loops of 8 iterations or more.

import { isMainThread, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;

function fill(a, lo, hi, v) {
  for (let j = lo; j < hi; j++) a[j] = v; // race
}

if (isMainThread) {
  const a = new Float64Array(new SharedArrayBuffer(128));
  const flag = new Int32Array(new SharedArrayBuffer(8));
  fill(a, 0, 8, 1);
  const w = spawn(import.meta.url, { a, flag });
  fill(a, 8, 16, 2);
  raw.store(flag, 0, 1); // invisible: no happens-before
  raw.notify(flag, 0);
  await join(w);
} else {
  const { a, flag } = workerData;
  raw.wait(flag, 0, 0, 20_000);
  if (a[2] !== 1) throw new Error('a[2]');
  if (a[12] !== 2) throw new Error('a[12]'); // race
}
