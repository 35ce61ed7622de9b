/**
 * goldilocks/annotations (issue 25 §2, src/annotations/): no-ops under plain node that still check their
 * arguments; under the runtime, `benignRace` bytes are never reported nor thrown for, and counted as benign. The
 * happens-before annotations are tested by the programs test/programs/annotations-wasm-{handoff,missing}.mjs (an
 * edge the runtime cannot see, annotated → no race; not annotated → race).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { benignRace, happensAfter, happensBefore } from '../../src/annotations/index.js';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const BENIGN = join(ROOT, 'test', 'programs', 'annotations-benign-counter.mjs');

describe('goldilocks/annotations outside the runtime', () => {
  test('every annotation is a no-op', () => {
    const view = new Int32Array(new SharedArrayBuffer(16));
    happensBefore('k');
    happensAfter('k');
    benignRace(view, 1, 2, 'why');
    benignRace(new DataView(view.buffer), 0, 16);
    benignRace(new Int32Array(4)); // not shared: left alone
    assert.deepEqual([...view], [0, 0, 0, 0]);
  });

  test('benignRace checks its arguments as under the runtime', () => {
    const view = new Int32Array(new SharedArrayBuffer(16));
    assert.throws(() => benignRace({} as Int32Array, 0, 1), TypeError);
    assert.throws(() => benignRace(view, 3, 2), /elements \[3, 5\) are not inside the view of 4/);
    assert.throws(() => benignRace(view, -1, 1), RangeError);
    assert.throws(() => benignRace(view, 0.5, 1), RangeError);
  });
});

describe('benignRace under goldilocks run', () => {
  for (const onRace of ['throw', 'report'])
    test(`--on-race=${onRace}: the counter's races are not reported, nor thrown for, and counted as benign`, {
      timeout: 60_000,
    }, async () => {
      const report = tempPath(`benign-${onRace}.json`);
      const r = await cliAsync(['run', `--on-race=${onRace}`, '--report', report, '--stats', BENIGN]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /WARNING|DataRaceException/);
      const j = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
      assert.equal(j.summary.racyVariables, 0);
      assert.ok((j.summary.benign ?? 0) >= 1, JSON.stringify(j.summary));
      assert.deepEqual(j.benign, [{ reason: 'approximate hit counter', count: j.summary.benign }]);
      assert.match(r.stderr, /benign races \(annotated\):\n {2}approximate hit counter +\d+\n/);
      assert.match(
        r.stderr,
        /SUMMARY: goldilocks: no races .*; races not reported: \d+ benign \(annotated\)/,
      );
    });
});
