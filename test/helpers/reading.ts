/**
 * Helpers of the tests that compare ways of reading a trace (pipeline.test.ts, split.test.ts): the reports of every
 * detector, and the error a read rejects with. They use the compiled `dist/`, as those tests do.
 */
import assert from 'node:assert/strict';
import { type CheckOptions, checkFile } from '../../dist/check.js';
import { jsonReport } from '../../dist/report/report.js';
import { tempPath } from './helpers.js';

export const DETECTORS = ['goldilocks', 'fasttrack', 'djit', 'eraser'];

/**
 * Checks `path` with every detector. @returns how it was read, and what must not depend on it: the JSON report of
 * each detector without its timing fields, the read result, the infeasibility warnings.
 */
export async function reports(path: string, options: CheckOptions) {
  const r = await checkFile(path, { detectors: DETECTORS, ...options });
  return {
    reading: r.reading,
    result: {
      reports: r.results.map((d) => {
        const j = jsonReport(r, d, path, 1000) as { summary: Record<string, unknown> };
        delete j.summary.timeMs;
        delete j.summary.eventsPerSecond;
        return j;
      }),
      input: r.input,
      warnings: r.engine.warnings,
    },
  };
}

/** The error `f` rejects with. */
export async function rejection(f: () => Promise<unknown>): Promise<Error> {
  try {
    await f();
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected an error');
}

/** A generated trace of 40,000 events (4 threads, 2000 variables, 20 locks, 4 volatiles, 1% racy) in a fresh file. */
export async function generatedTrace(seed: number): Promise<string> {
  const { generate } = await import('../../bench/generate.js');
  const out = tempPath('gen.trace');
  generate({ events: 40_000, threads: 4, vars: 2000, locks: 20, volatiles: 4, seed, racy: 0.01, out });
  return out;
}
