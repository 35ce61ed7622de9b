/**
 * goldilocks/stm is linked to the runtime of each thread that loads it, whenever and however it loads it (issue 24
 * §2: the runtime loads none of the STM, `src/hooks/libraries.ts`): its commits are then reported as transactions at
 * the program's `atomic` call (a sited method added then), as when it was loaded before the program (./stm.test.ts and
 * the §3 programs of test/programs/stm/ cover static imports). An STM not linked would be seen through its own
 * atomic operations: the race below would name `Int32Array` in the STM's files, not a transaction at the program's
 * line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'stm-link');
const LIMIT = { timeout: 120_000 };

/** Runs `program` with `--on-race=report`; its one race must be a transactional read committed at `line`. */
async function assertCommitRace(program: string, line: number): Promise<void> {
  const file = join(FIXTURES, program);
  const report = tempPath(`stm-link-${program}.json`);
  const r = await cliAsync(['run', '--on-race=report', '--report', report, file], 100_000);
  assert.equal(r.code, 0, r.stderr);
  const { races } = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  assert.equal(races.length, 1, r.stderr);
  const [{ current, previous, memory }] = races;
  assert.deepEqual([current.access, current.transactional], ['read', true], r.stderr);
  assert.equal(current.committedAt, `${file}:${line}:15`);
  assert.equal(memory.elementType, 'stm.atomic');
  assert.deepEqual([previous.access, previous.transactional], ['write', false]);
}

describe('goldilocks/stm loaded by the program after the runtime started', () => {
  test('by import() in one worker only, after it started', LIMIT, () =>
    assertCommitRace('worker-import.mjs', 15),
  );
  test('by import() in the main thread, after its worker started', LIMIT, () =>
    assertCommitRace('main-after-start.mjs', 11),
  );
  test('by require() (CommonJS) in one worker only', LIMIT, () => assertCommitRace('worker-require.cjs', 21));
});
