/**
 * `goldilocks run --record FILE` records the values of element accesses (issue 22 §2; docs/RUNTIME.md
 * "Recording"): `r(x)=0x…` / `w(x)=0x…`, the exact bytes in address order, so that `goldilocks check --adversarial`
 * analyses a live run. test/programs/record-values.mjs: one worker writes 1 then 2 to an Int32 element and a NaN
 * with a payload to a Float64 element, another reads both without synchronization.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { valueText } from '../../src/cli/record.js';
import { cli, cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const PROGRAM = join(ROOT, 'test', 'programs', 'record-values.mjs');
const LIMIT = { timeout: 60_000 };

interface Alternative {
  value: string;
  thread: string | null;
}
interface Example {
  variable: string;
  location: string;
  value: string;
  alternatives: Alternative[];
}
interface Adversarial {
  summary: { classes: Record<string, number> };
  examples: Record<string, Example[]>;
}

describe('goldilocks run --record with values', () => {
  test('valueText: bytes in address order, two hex digits each', () => {
    assert.equal(valueText(0x04030201, 0x08070605, 0, 8), '0x0102030405060708');
    assert.equal(valueText(0x04030201, 0x08070605, 2, 6), '0x03040506');
    assert.equal(valueText(-1, 0, 0, 1), '0xff');
  });

  test(
    'a recorded racy run replays through check --adversarial with the visible sets of the run',
    LIMIT,
    async () => {
      const trace = tempPath('values.trace');
      const r = await cliAsync(['run', '--on-race', 'report', '--record', trace, PROGRAM]);
      assert.equal(r.code, 0, r.stderr);
      const c = cli(['check', '--adversarial', '--json', '--max-reports', '100', trace]);
      assert.equal(c.status, 0, c.stderr);
      const a = (JSON.parse(c.stdout) as { adversarial: Adversarial }).adversarial;
      assert.equal(a.summary.classes.unexplained, 0);
      assert.equal(a.summary.classes['future-read'], 0);
      const reads = a.examples['sc-violation-possible'].filter((e) => e.location.startsWith(PROGRAM));
      const line = (e: Example) => Number(e.location.split(':').at(-2));
      const int = reads.find((e) => line(e) === 21);
      const nan = reads.find((e) => line(e) === 22);
      assert.ok(int !== undefined && nan !== undefined, c.stdout);
      // the Int32 read returned 2, and the initial 0, the 1 and the 2 were all visible
      assert.equal(int.value, '0x02000000');
      assert.deepEqual(
        int.alternatives.map((x) => x.value),
        ['initial', '0x01000000', '0x02000000'],
      );
      // the NaN read is the NaN written, bit for bit (payload 1)
      assert.equal(nan.value, '0x010000000000f07f');
      assert.deepEqual(
        nan.alternatives.map((x) => x.value),
        ['initial', '0x010000000000f07f'],
      );
    },
  );
});
