/**
 * How a report names a transactional access (issue 23 §2): the text says `write inside a transaction committed at
 * <location>`, the JSON access has `committedAt` (docs/REPORT.md), offline here (PLDI'07 Example 4 as a trace) and
 * on a record; live in ../live/stm.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RaceRecord } from '../../src/report/race.js';
import { textRace } from '../../src/report/text.js';
import { cli } from '../helpers/helpers.js';

const EXAMPLE4 = 'examples/example4-account.trace';
const COMMIT = 'Account.java:atomic { savings.bal -= 42; checking.bal += 42; }';

describe('a transactional access in a report', () => {
  test('text: the access inside a transaction committed at its location, by its thread', () => {
    const race: RaceRecord = {
      variable: 'sab#3+0',
      current: {
        index: -1,
        thread: 'T3',
        access: 'read',
        transactional: false,
        atomic: false,
        location: 'a.mjs:23:33',
      },
      previous: {
        index: -1,
        thread: 'T2',
        access: 'write',
        transactional: true,
        atomic: false,
        location: 'a.mjs:20:17',
        committedAt: 'a.mjs:20:17',
      },
      detail: 'FastTrack: previous access at epoch 3@T2, but C_T3[T2] = 0',
      precise: true,
    };
    const text = textRace(race, { detector: 'fasttrack', colors: false });
    assert.match(text, /\n {2}read by thread T3 at a\.mjs:23:33\n/);
    assert.match(text, /\n {2}previous write inside a transaction committed at a\.mjs:20:17 by thread T2\n/);
  });

  test('goldilocks check of Example 4: text and JSON name the commit', () => {
    const text = cli(['check', '--no-color', EXAMPLE4]);
    assert.equal(text.status, 0, text.stderr);
    assert.ok(
      text.stdout.includes(
        `previous write inside a transaction committed at ${COMMIT} by thread T1 (event 0)`,
      ),
      text.stdout,
    );
    for (const detector of ['goldilocks', 'fasttrack', 'djit']) {
      const r = cli(['check', '--json', '-d', detector, EXAMPLE4]);
      const [race] = (JSON.parse(r.stdout) as { races: RaceRecord[] }).races;
      assert.ok(race, `${detector}: no race: ${r.stdout}`);
      const tx = [race.current, race.previous].filter((a) => a.transactional);
      assert.equal(tx.length, 1, `${detector}: one transactional access: ${JSON.stringify(race)}`);
      assert.equal(tx[0].committedAt, COMMIT);
      const plain = [race.current, race.previous].find((a) => !a.transactional);
      assert.equal(plain && 'committedAt' in plain, false, 'a plain access has no committedAt');
    }
  });
});
