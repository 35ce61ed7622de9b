/**
 * node:test's tests in race reports (issue 25 §1): under `goldilocks run -- node --test …`, each test file runs in
 * a process of its own (Node sets `NODE_TEST_CONTEXT` there; the runner marks its own children, since a process a test
 * starts inherits that variable), and a race names that file and the test running in
 * the racing thread. Node 20 publishes no test events, so the runtime registers root-level `beforeEach` and
 * `afterEach` hooks of node:test in such a process (they run around every test of the file, nested ones too) that
 * note the running test's full name (`t.fullName`: its suites' names and its own, joined by ` > `). Wrapping `test`
 * and `it` instead would move the test locations node:test reports to the wrapper. A worker belongs to the test that
 * was running when it was spawned (passed in the worker's environment data). With tests of one file running
 * concurrently (`{ concurrency }`), the name is the last test started.
 */
import { createRequire } from 'node:module';
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import type { TestName } from '../report/race.js';

const KEY = 'goldilocks.test';
/** Set by the `node --test` process (the runner) to its pid, for the test files' processes it starts. */
const RUNNER = 'GOLDILOCKS_TEST_RUNNER';

interface Hooks {
  beforeEach(fn: (t: { name: string; fullName?: string }) => void): void;
  afterEach(fn: () => void): void;
}

/**
 * This thread's test naming: `current()` names the test running now (undefined outside any test),
 * `beforeSpawn()` hands it to the worker about to be spawned. Null in a process that node:test did not start.
 */
export function testNames(): { current(): TestName | undefined; beforeSpawn(): void } | null {
  if (isMainThread && process.execArgv.includes('--test')) process.env[RUNNER] = String(process.pid);
  // a test file's process: started by node --test itself (not a process a test started: it inherits the variables)
  if (process.env.NODE_TEST_CONTEXT === undefined || process.env[RUNNER] !== String(process.ppid))
    return null;
  if (!isMainThread) {
    const test = getEnvironmentData(KEY) as TestName | undefined;
    return { current: () => test, beforeSpawn() {} };
  }
  const file = process.argv[1] ?? '';
  let test: TestName | undefined;
  const node = createRequire(import.meta.url)('node:test') as Hooks;
  node.beforeEach((t) => {
    test = { file, name: t.fullName ?? t.name };
  });
  node.afterEach(() => {
    test = undefined;
  });
  return {
    current: () => test,
    beforeSpawn() {
      setEnvironmentData(KEY, test as never);
    },
  };
}
