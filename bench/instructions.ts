/**
 * Machine instructions per event of two builds, counted rather than timed: on this host, whose speed drifts by up to
 * 2× within minutes, a count is what shows a change of a few percent. Each build (the working tree's `dist/`, and
 * REV's, compiled by {@link buildRevision}) runs `checkFile` (read in one thread; `--detector none`: the parse and the
 * engine alone) under valgrind's cachegrind, with `node --single-threaded` (no compiler or GC threads: a count then
 * repeats to about 0.1% on a quiet machine), on the first N and the first 2N lines of a text trace; the difference of
 * the two counts is the steady-state cost of N lines, without start-up and compilation. Being a difference, it varies
 * more between invocations: by up to 2.5% (docs/BENCHMARKS.md, "Counted instructions").
 *
 *   npm run bench:instructions -- --base REV FILE [--detector goldilocks|none] [--lines N] [--binary]
 *
 * With `--binary` the two prefixes are converted to the binary format (`goldilocks convert --to bin`) and read as
 * such.
 *
 * FILE: a text trace (extended, STD or RoadRunner format; not gzip'd, not binary) of at least 2N lines; N defaults
 * to 1,000,000. Prints per build the two counts and the instructions per line, then their ratio current / base
 * (below 1: the current build executes fewer). Instructions are not time (a cache miss costs many): this measures
 * the work the code asks of the processor, and `npm run bench:compare` the time. Needs valgrind (Debian package
 * `valgrind`). Exit code 2 for bad arguments, a missing valgrind, or an unsuitable FILE.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { sniff } from '../dist/check.js';
import { describeMachine, ROOT } from '../scripts/child.js';
import { countInstructions, hasValgrind } from './cachegrind.js';
import { buildRevision } from './revision.js';

const USAGE =
  'usage: npm run bench:instructions -- --base REV FILE [--detector NAME|none] [--lines N] [--binary]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    detector: { type: 'string', default: 'goldilocks' },
    lines: { type: 'string', default: '1000000' },
    binary: { type: 'boolean', default: false },
  },
});
const lines = Number(values.lines.replace(/_/g, ''));
if (values.base === undefined || positionals.length !== 1 || !Number.isInteger(lines) || lines < 1) {
  console.error(USAGE);
  process.exit(2);
}
const file = positionals[0];
const fail = (message: string): never => {
  console.error(`bench:instructions: ${message}`);
  process.exit(2);
};
if (!hasValgrind()) fail('needs valgrind on the PATH (Debian: apt-get install valgrind)');

// FILE's first bytes: a text trace, not gzip'd, not binary
const { kind } = sniff(file, undefined);
if (kind === 'gzip') fail(`${file} is gzip'd: give it uncompressed`);
if (kind === 'bin') fail(`${file} is a binary trace: give a text trace`);
if (kind === 'unknown') fail(`${file} cannot be read, or its first line is no trace line`);

// the first N and 2N lines, in a temporary folder
const dir = mkdtempSync(path.join(tmpdir(), 'goldilocks-instructions-'));
let small = path.join(dir, 'small.trace');
let big = path.join(dir, 'big.trace');
{
  const out = [openSync(small, 'w'), openSync(big, 'w')];
  let k = 0;
  for await (const line of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    const text = `${line}\n`;
    if (k < lines) writeSync(out[0], text);
    writeSync(out[1], text);
    if (++k === 2 * lines) break;
  }
  for (const o of out) closeSync(o);
  if (k < 2 * lines) {
    rmSync(dir, { recursive: true });
    fail(`${file} has ${k} lines, fewer than 2 × ${lines}: give a smaller --lines`);
  }
}

if (values.binary) {
  const cli = path.join(ROOT, 'dist', 'cli', 'main.js');
  for (const text of [small, big])
    execFileSync(process.execPath, [cli, 'convert', '--to', 'bin', '-o', `${text}.bin`, text], {
      stdio: 'inherit',
    });
  small = `${small}.bin`;
  big = `${big}.bin`;
}

/** Instructions executed by `checkFile` of the build in `dist` on `trace` (cachegrind's "I refs"). */
function count(dist: string, trace: string): number {
  try {
    return countInstructions([path.join(ROOT, 'bench', 'count-run.mjs'), dist, trace, values.detector]);
  } catch (e) {
    return fail((e as Error).message);
  }
}

const { sha, dist: baseDist } = buildRevision(values.base);
console.log(
  `${describeMachine()}; ${values.detector} on ${file}, the first ${lines} and ${2 * lines} lines${values.binary ? ' converted to the binary format' : ''}, read in one thread`,
);
const perLine: number[] = [];
try {
  for (const [name, dist] of [
    [`base ${sha.slice(0, 12)}`, baseDist],
    ['current', path.join(ROOT, 'dist')],
  ]) {
    const a = count(dist, small);
    const b = count(dist, big);
    perLine.push((b - a) / lines);
    console.log(
      `${name}: ${a.toLocaleString('en-US')} and ${b.toLocaleString('en-US')} instructions; ${((b - a) / lines).toFixed(1)} per line`,
    );
  }
} finally {
  rmSync(dir, { recursive: true });
}
console.log(`current / base: ${(perLine[1] / perLine[0]).toFixed(4)} instructions per line`);
