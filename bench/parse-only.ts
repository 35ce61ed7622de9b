/**
 * The parse alone: reads a trace with the library's reader (`readTrace`: format detection, gzip, the parsers,
 * batching) into fresh symbol tables and drops every batch, no detector. What `goldilocks check` spends before its
 * detectors, to tell parser time from detector time, and to compare builds or hours on the parser alone.
 *
 *   npm run bench:parse -- FILE [--repeat N]
 *
 * Prints per run: events, time (ms), M events/s, distinct variables; then the best time. Each run in this process
 * (the JIT warm from the run before: take the best).
 */
import { parseArgs } from 'node:util';
import { Symbols } from '../src/model/symbols.js';
import { readTrace } from '../src/trace/reader.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { repeat: { type: 'string', default: '3' } },
});
const repeat = Number(values.repeat);
if (positionals.length !== 1 || !(repeat >= 1)) {
  console.error('usage: npm run bench:parse -- FILE [--repeat N]');
  process.exit(2);
}
const file = positionals[0];
let best = Number.POSITIVE_INFINITY;
for (let r = 0; r < repeat; r++) {
  const symbols = new Symbols();
  let events = 0;
  const t0 = process.hrtime.bigint();
  await readTrace(file, symbols, (b) => {
    events += b.length;
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  best = Math.min(best, ms);
  console.log(
    `run ${r + 1}: ${events} events, ${ms.toFixed(0)} ms, ${(events / ms / 1000).toFixed(2)} M events/s, ${symbols.variables.size} variables`,
  );
}
console.log(`best: ${best.toFixed(0)} ms`);
