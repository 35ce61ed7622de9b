/**
 * The check of a trace given as text (tests, examples), synchronously: all detectors linked (`./detectors/index.ts`).
 * A trace file: `./check.ts`, which loads only the detectors it runs.
 */
import { type CheckOptions, type CheckResult, msSince, newCheck } from './check.js';
import { createDetector } from './detectors/index.js';
import { readTraceBuffer } from './trace/reader.js';

/** As `checkFile` (`./check.ts`), for a trace given as text. */
export function checkText(text: string, options: CheckOptions = {}, name = '<text>'): CheckResult {
  const { symbols, engine, results } = newCheck(options, name, createDetector);
  const t0 = process.hrtime.bigint();
  const buf = Buffer.from(text, 'utf8');
  // A batch no larger than the text's line count (+ room for a pending event): small texts stay cheap.
  let lines = 2;
  for (let i = buf.indexOf(10); i >= 0 && lines < 1 << 15; i = buf.indexOf(10, i + 1)) lines++;
  const input = readTraceBuffer(buf, name, symbols, (b) => engine.process(b), {
    format: options.format,
    batchSize: lines + 2,
  });
  return { symbols, engine, results, input, timeMs: msSince(t0), reading: 'one thread' };
}
