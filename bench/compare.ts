/**
 * Two builds of the checker side by side in one process: the working tree's `dist/` against `dist/` built from a git
 * revision, their runs alternating (base, current, base, current, ...), so that both see the same host. This machine's
 * speed drifts by up to 2× within minutes; alternating in one run, and reporting the ratio, is what makes a change of
 * 5–20% measurable.
 *
 *   npm run bench:compare -- --base REV FILE [--detector goldilocks|none] [--pipeline off] [--repeat 9]
 *
 * The base revision is checked out and compiled by {@link buildRevision} (a git worktree in the system's temporary
 * directory). Each run is `checkFile` (parse + detect, no report) of FILE with
 * the detector (`--detector none`: the parse and the engine's feasibility checks alone); the JIT of each build warms over the runs. Prints each run, then per build the median and the minimum
 * in ms and their ratios current / base (below 1: the current build is faster). Exit code 2 for bad arguments.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { checkFile } from '../dist/check.js';
import { PIPELINE_MODES } from '../dist/trace/options.js';
import type { PipelineMode } from '../dist/trace/reading.js';
import { describeMachine, ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';

const USAGE =
  'usage: npm run bench:compare -- --base REV FILE [--detector NAME] [--pipeline MODE] [--repeat N]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    detector: { type: 'string', default: 'goldilocks' },
    pipeline: { type: 'string', default: 'off' },
    repeat: { type: 'string', default: '9' },
  },
});
const repeat = Number(values.repeat);
const pipeline = values.pipeline as PipelineMode;
if (
  values.base === undefined ||
  positionals.length !== 1 ||
  !Number.isInteger(repeat) ||
  repeat < 1 ||
  !PIPELINE_MODES.includes(pipeline)
) {
  console.error(USAGE);
  process.exit(2);
}
const file = positionals[0];

const { sha, dist: baseDist } = buildRevision(values.base);

/** A build: its label, its `checkFile`, and the times of its runs (ms). */
interface Build {
  name: string;
  check: typeof checkFile;
  ms: number[];
}
async function load(name: string, dist: string): Promise<Build> {
  const m = (await import(pathToFileURL(path.join(dist, 'check.js')).href)) as {
    checkFile: typeof checkFile;
  };
  return { name, check: m.checkFile, ms: [] };
}
const builds = [
  await load(`base ${sha.slice(0, 12)}`, baseDist),
  await load('current', path.join(ROOT, 'dist')),
];

console.log(
  `${describeMachine()}; ${values.detector} on ${file}, --pipeline ${pipeline}, ${repeat} runs each`,
);
for (let r = 0; r < repeat; r++) {
  for (const b of builds) {
    const t0 = performance.now();
    await b.check(file, { detectors: values.detector === 'none' ? [] : [values.detector], pipeline });
    const ms = performance.now() - t0;
    b.ms.push(ms);
    console.log(`run ${r + 1} ${b.name}: ${ms.toFixed(0)} ms`);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const [base, current] = builds.map((b) => ({ median: median(b.ms), min: Math.min(...b.ms) }));
for (const b of builds)
  console.log(`${b.name}: median ${median(b.ms).toFixed(0)} ms, min ${Math.min(...b.ms).toFixed(0)} ms`);
console.log(
  `current / base: median ${(current.median / base.median).toFixed(3)}, min ${(current.min / base.min).toFixed(3)}`,
);
