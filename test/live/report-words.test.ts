/**
 * Race reports in the program's words (issue 25 §1): the lockset names goldilocks/sync primitives by their names
 * (`Mutex 'connection'`) and atomic locations by what holds them, "decided by" is one plain sentence; `--history`
 * gives the previous access's stack; under `node --test` each race names its test file and test.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
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

  test(
    'memory handed on by workerData and postMessage: each edge by its sender and call site, in text, JSON and HTML',
    LIMIT,
    async () => {
      const program = join(ROOT, 'test', 'fixtures', 'report', 'message-handoff.mjs');
      const marker = tempPath('handoff.marker');
      rmSync(marker, { force: true });
      const html = tempPath('handoff.html');
      const r = await run(['--html', html, program, marker]);
      assert.equal(r.code, 0, r.stderr);
      const [race] = r.report.races;
      assert.equal(race.previous.location, `${program}:11:3`, r.stderr); // the main thread's write
      assert.equal(race.current.location, `${program}:20:3`);
      const message = `postMessage from T0 at ${program}:13:10`;
      const helper = r.report.races[0].locksetNames?.find((n) => n.includes('(Worker started by T0 at'));
      assert.match(helper ?? '', new RegExp(`^T\\d+ \\(Worker started by T0 at ${program}:12:18\\)$`));
      assert.ok(race.locksetNames?.includes(message), String(race.locksetNames));
      assert.equal(race.locksetNames?.length, race.lockset?.length);
      const sentence = `; it was handed on by ${helper} and by ${message}, not to ${race.current.thread} (`;
      assert.ok(r.stderr.includes(`  lockset: {T0, ${helper}, ${message}`), r.stderr);
      assert.ok(r.stderr.includes(sentence), r.stderr);
      const page = readFileSync(html, 'utf8');
      assert.ok(page.includes(sentence), 'the HTML page says how it was decided');
      assert.ok(page.includes(message));
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
