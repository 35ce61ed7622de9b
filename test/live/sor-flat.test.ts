/**
 * Issue 24's opening example, red-black SOR over one flat Float64Array (bench/programs/sor-flat.mjs), with a race:
 * test/programs/sor-flat-missing-barrier.mjs skips the barrier between its last iteration's half sweeps, after two
 * iterations that leave its pages split (each word its list, the words alternating between two histories). Under
 * `goldilocks run` (`--on-race=throw`, the default) the worker whose red half sweep reads the other's black elements
 * throws a DataRaceException at its first such read (row 8's first red element, before it is updated), naming the
 * read's line, under the goldilocks and fasttrack detectors.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cliAsync, ROOT } from '../helpers/helpers.js';

const PROGRAM = join(ROOT, 'test', 'programs', 'sor-flat-missing-barrier.mjs');

describe('red-black SOR with a missing barrier', () => {
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`throws at the racing read, on split pages (${detector})`, async () => {
      const o = await cliAsync(['run', '--stats', '--detector', detector, PROGRAM], 120_000);
      assert.equal(o.code, 0, o.stderr);
      assert.match(o.stdout, /^worker 0: DataRaceException at row 8, column 1\n$/, o.stderr);
      assert.match(o.stderr, /read by thread T\d at \S*sor-flat-missing-barrier\.mjs:26:46\n/);
      assert.match(o.stderr, /previous write by thread T\d at \S*sor-flat-missing-barrier\.mjs:27:7\n/);
      // the run left words with lists of their own (split pages; the census at exit)
      const split = /splitInfoKiB\s+([\d,]+)/.exec(o.stderr);
      assert.ok(split !== null && Number(split[1].replace(/,/g, '')) > 0, o.stderr);
    });
});
