// The worker of sync.test.mjs: asynchronous answers to the synchronous calls.
import { setTimeout as sleep } from 'node:timers/promises';
import { runAsWorker } from 'synckit';

runAsWorker(async (what, n) => {
  await sleep(n % 3);
  if (what === 'fail') throw new Error(`failed on ${n}`);
  if (what === 'large') return 'ab'.repeat(n / 2);
  return { i: n, square: n * n };
});
