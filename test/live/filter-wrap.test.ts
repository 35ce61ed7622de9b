/**
 * The same-epoch filter across an epoch wrap (`src/live/filter.ts`, `src/live/views.ts`): a thread's epochs wrap at
 * 65,535, so an entry left from the epoch of the same number before the wrap must not cover an access after it. A
 * worker T writes one word per filter block in N consecutive epochs, a worker U then writes them all (handed over by
 * plain flags: nothing orders the writes), T performs about 65,535 + N/2 synchronization operations and writes every
 * word again: each of these N writes races with U's and is reported, also the one whose epoch number equals that of
 * T's first write of the word (the filter's stale entry).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { cliAsync, tempFile, tempPath } from '../helpers/helpers.js';

const N = 64;
const PROGRAM = `
import { isMainThread, Worker, workerData } from 'node:worker_threads';
const N = ${N};
if (isMainThread) {
  const a = new Float64Array(new SharedArrayBuffer(8 * 8 * N));
  const flags = new Int32Array(new SharedArrayBuffer(8));
  for (const role of ['T', 'U']) new Worker(new URL(import.meta.url), { workerData: { a, flags, role } });
} else {
  const { a, flags, role } = workerData;
  if (role === 'T') {
    const own = new Int32Array(new SharedArrayBuffer(4));
    for (let j = 0; j < N; j++) {
      a[8 * j] = 1;
      Atomics.load(own, 0);
    }
    flags[0] = 1;
    while (flags[1] === 0);
    for (let k = 0; k < 65535 - N / 2; k++) Atomics.load(own, 0);
    for (let j = 0; j < N; j++) a[8 * j] = 3; // T's second pass
  } else {
    while (flags[0] === 0);
    for (let j = 0; j < N; j++) a[8 * j] = 2; // U's writes
    flags[1] = 1;
  }
}
`;
const lineOf = (marker: string): number => PROGRAM.split('\n').findIndex((l) => l.includes(marker)) + 1;

interface Race {
  current: { location: string };
  previous: { location: string };
  count: number;
}

describe('same-epoch filter across an epoch wrap', () => {
  test("every write of T's second pass is checked and races with U's write", async () => {
    const program = tempFile('filter-wrap.mjs', PROGRAM);
    const report = tempPath('filter-wrap.json');
    const o = await cliAsync(['run', '--on-race=report', '--report', report, program], 120_000);
    assert.equal(o.code, 0, o.stderr);
    const { races } = JSON.parse(readFileSync(report, 'utf8')) as { races: Race[] };
    const at = (r: Race['current'], line: number) => r.location.includes(`${program}:${line}:`);
    const pass = races.filter(
      (r) => at(r.current, lineOf("T's second pass")) && at(r.previous, lineOf("U's writes")),
    );
    assert.equal(pass.length, 1, JSON.stringify(races.map((r) => [r.current.location, r.previous.location])));
    assert.equal(pass[0].count, N, "a race per word of T's second pass");
  });
});
