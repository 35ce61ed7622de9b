// The worker of sync.test.mjs: one asynchronous answer per worker.
const { runAsWorker } = require('sync-threads');

runAsWorker(async ({ i, fail }) => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  if (fail !== undefined) throw new Error(`failed on ${fail}`);
  return { i, square: i * i, text: `#${i}`.repeat(i + 1) };
});
