// expect: race
// idiom: a buffer shared halfway through a covered loop: the main thread writes elements 0-7 twice (its writes then
// covered in its epoch), then writes them again in a covered loop that starts a worker at element 4 (an opaque call:
// the fork is a synchronization, after which the loop's writes take their per-access checks); the worker reads
// element 2 (written before the fork: ordered) and element 6, whose write after the fork is unordered with it.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;

/** What the worker is started with, once set; the worker. */
let data = null;
let started = null;

/** Starts the worker at element 4, once `data` is set. */
function begin(j) {
  if (j === 4 && data !== null) started = spawn(import.meta.url, data);
}

/** Writes v into the elements of `a` but the negative ones, calling `begin` at each. */
function fill(a, v) {
  for (let j = 0; j < a.length; j++) {
    if (a[j] < 0) continue;
    a[j] = v; // race
    begin(j);
  }
}

if (isMainThread) {
  const a = new Float64Array(new SharedArrayBuffer(64));
  const flag = new Int32Array(new SharedArrayBuffer(8));
  fill(a, 1);
  fill(a, 1);
  data = { a, flag };
  fill(a, 2);
  raw.store(flag, 0, 1); // invisible: no happens-before
  raw.notify(flag, 0);
  await join(started);
} else {
  const { a, flag } = workerData;
  raw.wait(flag, 0, 0, 20_000);
  if (a[2] !== 2) throw new Error('a[2]');
  if (a[6] !== 2) throw new Error('a[6]'); // race
}
