/**
 * One benchmark measurement, meant to run in a fresh process (bench/bench.ts spawns it):
 *
 *   node --import tsx bench/run-one.ts <detector> <file> [--lenient] [--pipeline auto|on|split|off]
 *
 * Reads and checks the trace end to end (parse + detect, streaming) with one detector, and prints one line
 * of JSON: events, timeMs (parse + detect, without Node's startup), eventsPerSec, racyEvents, racyVars,
 * maxRSSKiB (peak resident set of the whole process, `process.resourceUsage().maxRSS`), format, warnings,
 * reading (how the trace was read: in one thread, by a parser thread, or split between parser threads; from
 * `CheckOptions.pipeline`, default auto).
 */
import { parseArgs } from 'node:util';
import { checkFile } from '../dist/check.js';
import { PIPELINE_MODES } from '../dist/trace/options.js';
import type { PipelineMode, Reading } from '../dist/trace/reading.js';

export interface RunResult {
  detector: string;
  file: string;
  format: string;
  events: number;
  timeMs: number;
  eventsPerSec: number;
  racyEvents: number;
  racyVars: number;
  maxRSSKiB: number;
  warnings: number;
  reading: Reading;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { lenient: { type: 'boolean', default: false }, pipeline: { type: 'string', default: 'auto' } },
});
const [detector, file] = positionals;
const pipeline = values.pipeline as PipelineMode;
if (detector === undefined || file === undefined || !PIPELINE_MODES.includes(pipeline)) {
  process.stderr.write(
    'usage: node --import tsx bench/run-one.ts <detector> <file> [--lenient] [--pipeline auto|on|split|off]\n',
  );
  process.exit(2);
}
try {
  const r = await checkFile(file, { detectors: [detector], lenient: values.lenient, pipeline });
  const races = r.results[0].races;
  const events = r.engine.events;
  const out: RunResult = {
    detector,
    file,
    format: r.input.format,
    events,
    timeMs: r.timeMs,
    eventsPerSec: events / (r.timeMs / 1000),
    racyEvents: races.racyEvents,
    racyVars: races.firstRace.size,
    maxRSSKiB: process.resourceUsage().maxRSS,
    warnings: r.engine.warnings,
    reading: r.reading,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
} catch (e) {
  process.stderr.write(`run-one ${detector} ${file}: ${(e as Error).message}\n`);
  process.exit(1);
}
