/**
 * Transactions under the live runtime (issue 23 §2; PLDI'07 §5.3): what the verdicts of test/programs/stm/ (run by
 * ./programs.test.ts) do not show — where the DataRaceException of Example 4 is thrown (also in examples/), how the report names a
 * transactional access, that a race found at a commit throws out of `atomic`, and the xact short-circuit's counter.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cliAsync, tempPath } from '../helpers/helpers.js';

const PROGRAMS = join(import.meta.dirname, '..', 'programs', 'stm');
const LIMIT = { timeout: 120_000 };

interface Access {
  thread: string;
  access: string;
  transactional: boolean;
  location: string;
  committedAt?: string;
}

/** `goldilocks run --report <json> ...args <program>`: the run and its JSON report. */
async function run(program: string, args: string[] = []) {
  const report = tempPath(`stm-${program}.json`);
  const r = await cliAsync(['run', '--report', report, ...args, join(PROGRAMS, program)], 100_000);
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    races: { current: Access; previous: Access }[];
    stats: Record<string, number>;
  };
  return { ...r, json };
}

describe('goldilocks run with goldilocks/stm', () => {
  test(
    'Example 4: the Mutex-protected withdrawal gets DataRaceException, against a transactional write',
    LIMIT,
    async () => {
      const { code, stderr, json } = await run('tx-mutex-withdrawal.mjs');
      assert.notEqual(code, 0, stderr);
      assert.match(stderr, /DataRaceException: data race on sab#\d+\+0 \(Int32Array\): read by thread T2 /);
      assert.match(
        stderr,
        /previous write inside a transaction committed at .*tx-mutex-withdrawal\.mjs:20:\d+ by thread T1\n/,
      );
      const [race] = json.races;
      assert.deepEqual(
        [race.current, race.previous].map((a) => [a.thread, a.access, a.transactional]),
        [
          ['T2', 'read', false],
          ['T1', 'write', true],
        ],
      );
      assert.match(race.previous.committedAt ?? '', /tx-mutex-withdrawal\.mjs:20:\d+$/);
      assert.equal(race.previous.committedAt, race.previous.location);
      assert.equal(race.current.committedAt, undefined);
    },
  );

  test('a race found at a commit is reported as transactional and throws out of atomic', LIMIT, async () => {
    const { code, stderr, json } = await run('tx-plain-then-transaction.mjs');
    assert.notEqual(code, 0, stderr);
    assert.match(
      stderr,
      /read inside a transaction committed at .*tx-plain-then-transaction\.mjs:16:\d+ by thread T2/,
    );
    assert.match(stderr, /DataRaceException: data race on sab#\d+\+0 \(stm\.atomic\): read by thread T2 /);
    assert.match(stderr, /at STM\.atomic /, 'thrown from the commit inside atomic');
    assert.equal(json.races[0].current.transactional, true);
    assert.equal(json.races[0].previous.transactional, false);
    assert.match(json.races[0].current.committedAt ?? '', /tx-plain-then-transaction\.mjs:16:\d+$/);
  });

  test(
    'examples/stm-account.mjs (Example 4): the withdrawing worker is stopped by DataRaceException',
    LIMIT,
    async () => {
      const r = await cliAsync(['run', 'examples/stm-account.mjs'], 100_000);
      assert.match(
        r.stdout,
        /\[withdraw\] stopped by DataRaceException: data race on sab#\d+\+8 \(Float64Array\)/,
      );
      assert.doesNotMatch(r.stdout, /\[transfer\]/);
    },
  );

  test('examples/stm-foo-list.mjs (Example 3): ownership through transactions, no race', LIMIT, async () => {
    const r = await cliAsync(['run', 'examples/stm-foo-list.mjs'], 100_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /foo\.data = 20/);
    assert.doesNotMatch(r.stderr, /WARNING/);
  });

  test('two transactional accesses are decided by the xact short-circuit', LIMIT, async () => {
    const { code, stderr, json } = await run('tx-only.mjs', ['--on-race=report']);
    assert.equal(code, 0, stderr);
    assert.equal(json.races.length, 0);
    assert.ok(json.stats.shortCircuitXact > 0, JSON.stringify(json.stats));
  });
});
