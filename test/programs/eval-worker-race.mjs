// expect: race
// idiom: an eval worker racing with main: main reads while the eval worker, not yet joined, has written.
import { join, schedule, spawnEval } from './sched.mjs';

// An eval script cannot import sched.mjs, so it ends its step by hand: the raw add + notify of schedule().next().
const CODE = `const { workerData } = require('node:worker_threads');
const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;
const { data, sched } = workerData;
data[0] = 21; // race
raw.add(sched, 0, 1);
raw.notify(sched, 0);
`;

const s = schedule();
const data = new Int32Array(new SharedArrayBuffer(4));
const w = spawnEval(import.meta.url, CODE, { data, sched: new Int32Array(s.buffer) });
const seen = s.at(1, () => data[0]); // race
await join(w);
if (seen !== 21) throw new Error(`saw ${seen}`);
