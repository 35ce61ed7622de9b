/**
 * A walk proves every access of the Info's owner before the release its thread entered through, not only the Info's
 * (`Shadow.walk`, the memo's extension; docs/RUNTIME.md "The check"): a reader that takes over a worker's N writes
 * through one flag decides all but its first check by the memo, where each check took a lockset walk of its own before;
 * and so does a reader whose check starts from a collection's record (its reach, src/live/memory/locksets.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runReport } from '../helpers/helpers.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'runtime', 'handoff-memo.mjs');
const RACE = join(ROOT, 'test', 'fixtures', 'runtime', 'handoff-memo-race.mjs');
const COLLECTED = join(ROOT, 'test', 'fixtures', 'runtime', 'handoff-memo-collected.mjs');
const N = 512;

describe('the memo after a walk', () => {
  test('one walk proves the whole batch handed over', { timeout: 120_000 }, async () => {
    const { stdout, report: j } = await runReport([FIXTURE, String(N)]);
    assert.match(stdout, new RegExp(`sum = ${(N * (N - 1)) / 2}`));
    assert.equal(j.summary.racePairs, 0);
    const s = j.stats;
    assert.equal(s.walks + s.directTransfer, 1, `${s.walks} walks, ${s.directTransfer} direct transfers`);
    assert.equal(s.hbMemo, N - 1);
  });

  test("a collection's record proves every access up to its reach", { timeout: 120_000 }, async () => {
    const { stdout, report: j } = await runReport([COLLECTED, String(N)]);
    assert.match(stdout, new RegExp(`sum = ${(N * (N - 1)) / 2}`));
    assert.equal(j.summary.racePairs, 0);
    const s = j.stats;
    assert.ok(s.eagerRuns >= 1, `${s.eagerRuns} collections`);
    // the first check, from its write's record (which holds the reader), proves all N writes: one record, the writes'
    // locksets being equal; without the record's reach each check walked
    assert.ok(s.walks + s.directTransfer <= 2, `${s.walks} walks, ${s.directTransfer} direct transfers`);
    assert.ok(s.hbMemo >= N - 2, `${s.hbMemo} memo decisions`);
  });

  test("a write after a record's reach still races", { timeout: 120_000 }, async () => {
    const { report: j } = await runReport([COLLECTED, String(N), 'race']);
    const lines = readFileSync(COLLECTED, 'utf8').split('\n');
    const at = (text: string) => `handoff-memo-collected.mjs:${lines.indexOf(text) + 1}:`;
    const values = j.races.filter((r) =>
      r.current.location?.includes(at('    if (race) sum += values[0]; // race')),
    );
    assert.equal(values.length, 1, JSON.stringify(j.races.map((r) => r.current.location)));
    assert.ok(
      values[0].previous?.location?.includes(at('    if (race) values[0] = -1; // race')),
      values[0].previous?.location,
    );
  });

  test('a write after the release the walk went through still races', { timeout: 120_000 }, async () => {
    const { stdout, report: j } = await runReport([RACE]);
    assert.match(stdout, /read 1 2/);
    assert.equal(j.summary.racePairs, 1);
    const race = j.races[0];
    assert.equal(race.variable, 'sab#2+8'); // values[1], not values[0]
    const lines = readFileSync(RACE, 'utf8').split('\n');
    const at = (text: string) => `handoff-memo-race.mjs:${lines.indexOf(text) + 1}:`;
    assert.ok(
      race.current.location?.endsWith(`${at('    const b = values[1]; // race')}15`),
      race.current.location,
    );
    assert.ok(
      race.previous?.location?.endsWith(`${at('    values[1] = 2; // race')}5`),
      race.previous?.location,
    );
  });
});
