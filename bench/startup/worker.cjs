// The CommonJS worker entry of bench/startup/workers.mjs (argument `cjs`): posts a message as its first statement.
require('node:worker_threads').parentPort.postMessage('started');
