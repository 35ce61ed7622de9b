// expect: no race
// idiom: an eval worker, new Worker(code, { eval: true }): its start and exit order its accesses with main's.
import { Worker } from 'node:worker_threads';
import { join } from './sched.mjs';

const CODE = `
const { workerData } = require('node:worker_threads');
const data = workerData.data;
data[1] = data[0] * 3;
`;

const data = new Int32Array(new SharedArrayBuffer(8));
data[0] = 14;
await join(new Worker(CODE, { eval: true, workerData: { data } }));
if (data[1] !== 42) throw new Error(`data[1] is ${data[1]}`);
