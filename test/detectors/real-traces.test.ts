import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkFile, verdicts } from '../../src/check.js';
import { TraceError } from '../../src/model/errors.js';

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'traces');
const present = existsSync(SHARED);
if (!present) console.log(`# skipping real-trace tests: ${SHARED} is absent`);

/** Known infeasible traces (two threads hold l1 at once). */
const INFEASIBLE = new Set(['input10.std', 'input11.std']);
/** RoadRunner traces small enough for the test suite (the benchmark runs the large ones). */
const RR_MAX_BYTES = 3_500_000;

function traces(dir: string, maxBytes = Number.POSITIVE_INFINITY): string[] {
  if (!present) return [];
  return readdirSync(join(SHARED, dir))
    .filter((f) => statSync(join(SHARED, dir, f)).size <= maxBytes)
    .sort();
}

describe('real traces (../shared/traces): the precise detectors agree', {
  skip: present ? false : 'needs ../shared/traces',
}, () => {
  for (const dir of ['rapid-tests', 'real', 'roadrunner']) {
    for (const f of traces(dir, dir === 'roadrunner' ? RR_MAX_BYTES : undefined)) {
      const path = join(SHARED, dir, f);
      if (INFEASIBLE.has(f)) {
        it(`${dir}/${f} is reported infeasible`, async () => {
          await assert.rejects(
            checkFile(path),
            (e: unknown) => e instanceof TraceError && e.kind === 'infeasible',
          );
        });
        continue;
      }
      it(`${dir}/${f}`, async () => {
        const detectors = ['goldilocks', 'djit', 'fasttrack', 'eraser', 'eager'];
        // Verdicts (first race per variable) do not depend on checking after a variable's first race; skipping
        // it keeps goldilocks' walks short on the racy traces (see docs/BENCHMARKS.md on racy inputs).
        const r = await checkFile(path, {
          detectors,
          detectorOptions: { goldilocks: { stopAfterFirstRace: true } },
        });
        const base = verdicts(r, 0);
        for (let i = 1; i < detectors.length; i++) {
          if (detectors[i] === 'eraser') continue;
          assert.deepEqual(verdicts(r, i), base, `${detectors[i]} disagrees with goldilocks`);
        }
        // goldilocks with every optimization off, and with constant partially-eager evaluation
        const plain = await checkFile(path, {
          detectorOptions: {
            goldilocks: {
              xactShortCircuit: false,
              ownerShortCircuit: false,
              alockShortCircuit: false,
              directTransfer: false,
              eagerBound: 10_000,
              stopAfterFirstRace: true,
            },
          },
        });
        assert.deepEqual(verdicts(plain), base, 'goldilocks without short-circuits disagrees');
      });
    }
  }
});
