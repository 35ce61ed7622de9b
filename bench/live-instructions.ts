/**
 * Machine instructions per element access of the live runtime, two builds side by side, counted rather than timed
 * (the host's speed drifts; see `./instructions.ts` for the method). Each build (the working tree's `dist/`, and
 * REV's, compiled by {@link buildRevision}) runs `bench/live-count.mjs PATTERN R` under `node --import
 * DIST/node/register.js` (the live runtime with its default detector, one thread) under valgrind's cachegrind, for
 * R and 2R rounds; the difference of the two counts, divided by the accesses of R rounds (2 × 2^16 each), is the
 * steady-state cost of one access, without start-up, instrumentation and compilation.
 *
 *   npm run bench:live-instructions -- --base REV [--patterns checked,filtered,atomic] [--rounds R]
 *
 * Patterns (`bench/live-count.mjs`): `checked`, every access a word check; `filtered`, every access covered by the
 * same-epoch filter; `atomic`, `Atomics.add` and `Atomics.load` calls; `columns`, lufact's daxpy; `fresh`, each round
 * the next part of one buffer written in order (every write a word check of a word never accessed, every read a
 * same-epoch hit); `scatter`, after a new epoch each element read and written once, a page's 8 in an order not the
 * index order (moldyn's forces at size large); `checkerboard`, red-black SOR's half sweeps (each word's first access in
 * an epoch a check, on pages whose words alternate between two histories; 3 × 2^16 accesses a round); `private`, the `checked` loops over a buffer private to the thread (never sent). R defaults to 10.
 * Prints per pattern and
 * build the two counts and the instructions per access, then the ratio current / base. Needs valgrind (Debian
 * package `valgrind`). Exit code 2 for bad arguments or a missing valgrind.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { countInstructions, hasValgrind } from './cachegrind.js';
import { buildRevision } from './revision.js';

const PATTERNS = ['checked', 'filtered', 'atomic', 'columns', 'fresh', 'scatter', 'checkerboard', 'private'];
/** Element accesses of one round of bench/live-count.mjs by pattern: 2 × 2^16, 3 × 2^16 for `checkerboard`. */
const perRound = (pattern: string): number => (pattern === 'checkerboard' ? 3 : 2) * (1 << 16);

function fail(message: string): never {
  process.stderr.write(`bench:live-instructions: ${message}\n`);
  process.exit(2);
}

let values: { base?: string; patterns: string; rounds: string };
try {
  ({ values } = parseArgs({
    options: {
      base: { type: 'string' },
      patterns: { type: 'string', default: PATTERNS.join(',') },
      rounds: { type: 'string', default: '10' },
    },
  }));
} catch (e) {
  fail((e as Error).message);
}
if (values.base === undefined) fail('--base REV is required');
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) fail(`--rounds: not a positive integer: ${values.rounds}`);
const patterns = values.patterns.split(',');
for (const p of patterns)
  if (!PATTERNS.includes(p)) fail(`--patterns: ${p} is not one of ${PATTERNS.join(', ')}`);

if (!hasValgrind()) fail('needs valgrind on the PATH (Debian: apt-get install valgrind)');

/** Instructions executed by the program with the build in `dist`, `pattern`, `r` rounds. */
function count(dist: string, pattern: string, r: number): number {
  try {
    return countInstructions([
      '--import',
      path.join(dist, 'node', 'register.js'),
      path.join(ROOT, 'bench', 'live-count.mjs'),
      pattern,
      String(r),
    ]);
  } catch (e) {
    return fail((e as Error).message);
  }
}

const { sha, dist: baseDist } = buildRevision(values.base);
console.log(
  `${describeMachine()}; bench/live-count.mjs, ${rounds} and ${2 * rounds} rounds (accesses per round: ${patterns.map((p) => `${p} ${perRound(p)}`).join(', ')})`,
);
for (const pattern of patterns) {
  const perAccess: number[] = [];
  for (const [name, dist] of [
    [`base ${sha.slice(0, 12)}`, baseDist],
    ['current', path.join(ROOT, 'dist')],
  ]) {
    const a = count(dist, pattern, rounds);
    const b = count(dist, pattern, 2 * rounds);
    perAccess.push((b - a) / (rounds * perRound(pattern)));
    console.log(
      `${pattern} ${name}: ${a.toLocaleString('en-US')} and ${b.toLocaleString('en-US')} instructions; ${((b - a) / (rounds * perRound(pattern))).toFixed(1)} per access`,
    );
  }
  console.log(
    `${pattern} current / base: ${(perAccess[1] / perAccess[0]).toFixed(4)} instructions per access`,
  );
}
