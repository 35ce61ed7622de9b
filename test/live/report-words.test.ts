/**
 * Race reports in the program's words (issue 25 §1): the lockset names goldilocks/sync primitives by their names
 * (`Mutex 'connection'`) and atomic locations by what holds them, "decided by" is one plain sentence; `--history`
 * gives the previous access's stack; under `node --test` each race names its test file and test.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const LIMIT = { timeout: 120_000 };

async function run(args: string[]) {
  const report = tempPath('words.json');
  const r = await cliAsync(['run', '--on-race=report', '--report', report, ...args]);
  return { ...r, report: JSON.parse(readFileSync(report, 'utf8')) as JsonReport };
}

describe('reports in the program’s words', () => {
  test(
    'Figure 1: the Mutex by its name, its atomics as its own, the decision in a sentence',
    LIMIT,
    async () => {
      const r = await run([join(ROOT, 'examples', 'ftp-connection.mjs')]);
      assert.equal(r.code, 0, r.stderr);
      const [race] = r.report.races;
      assert.equal(race.locksetNames?.length, race.lockset?.length);
      assert.ok(race.locksetNames?.includes("Mutex 'connection'"), String(race.locksetNames));
      assert.ok(race.locksetNames?.includes('T0'));
      assert.ok(
        race.locksetNames?.some((n) =>
          /^Atomics on \[\d+\] \(bytes \d+–\d+\) of Mutex 'connection'$/.test(n),
        ),
      );
      assert.match(r.stderr, /\n {2}lockset: \{[^}]*Mutex 'connection'[^}]*\}\n/);
      assert.match(
        r.stderr,
        /\n {2}decided by: nothing orders T0's write before T\d+'s read: no lock, Atomics operation, message, or thread start or join hands the memory from T0 to T\d+ in between \(lockset walk over \d+ synchronization events: T\d+ ∉ LS\)\n/,
      );
    },
  );

  test(
    '--history: the previous access’s stack, its first frame at its location; none without',
    LIMIT,
    async () => {
      const program = join(ROOT, 'test', 'fixtures', 'report', 'stack.mjs');
      const plain = await run([program]);
      assert.equal(plain.report.races[0].previous.stack, undefined);
      const r = await run(['--history', program]);
      assert.equal(r.code, 0, r.stderr);
      const [race] = r.report.races;
      const first = race.previous.stack?.split('\n')[0].trim() ?? '';
      assert.equal(first.replace(/^at (?:.* \()?(.*?)\)?$/, '$1'), race.previous.location);
      assert.match(r.stderr, /\n {2}previous write by thread T0 at .*\n {4}at /);
    },
  );

  test('node --test: each race names its test file and test', LIMIT, async () => {
    const file = join(ROOT, 'test', 'fixtures', 'report', 'racy-test.mjs');
    // this test file runs under node --test itself: the run is a fresh one (its env without NODE_TEST_CONTEXT)
    const context = process.env.NODE_TEST_CONTEXT;
    delete process.env.NODE_TEST_CONTEXT;
    const running = run(['--', process.execPath, '--test', '--test-reporter=tap', file]);
    if (context !== undefined) process.env.NODE_TEST_CONTEXT = context;
    const r = await running;
    const tests = r.report.races.map((race) => race.current.test);
    assert.deepEqual(
      tests.map((t) => t?.name).sort(),
      ['connection > closes while serving', 'connection > writes from the test body'],
      r.stderr,
    );
    for (const t of tests) assert.equal(t?.file, file);
    assert.match(r.stdout + r.stderr, /in test 'connection > closes while serving' of /);
    assert.match(r.stdout, /\n# pass 2\n/); // the hooks change nothing of the tests' own outcome
  });
});
