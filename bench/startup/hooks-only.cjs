/**
 * The floor of a worker's start-up under the live runtime on Node 20, for bench/worker-start.ts (mode `hooks`): a
 * preload that, like dist/node/register.js, registers ES module loader hooks in the main thread and in each worker
 * (Node 20 runs a loader-hooks thread per thread that registers, and does not pass hooks on to workers), here hooks
 * that do nothing (./hooks-only.mjs). What a worker then costs more than a plain one is Node's, not the runtime's.
 */
const { register } = require('node:module');
const { pathToFileURL } = require('node:url');
const { isMainThread, parentPort } = require('node:worker_threads');

if (isMainThread || parentPort !== null) register('./hooks-only.mjs', pathToFileURL(__filename));
