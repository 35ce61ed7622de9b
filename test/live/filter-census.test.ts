/**
 * The resident part of the same-epoch filters (`src/live/filter-census.ts`): the report's `stats` state, beside the
 * bytes the threads' filters reserve (`filterBytes`), the bytes of the system pages they wrote
 * (`filterResidentBytes`), what the filters cost in RSS (issue 24 §1: shadow memory stated per shared byte).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { residentFilterBytes, SYSTEM_PAGE_BYTES } from '../../src/live/filter-census.js';
import { CLI, tempFile, tempPath } from '../helpers/helpers.js';

const ENTRIES_PER_PAGE = SYSTEM_PAGE_BYTES / 4;

describe('resident filter bytes', () => {
  test('counts the system pages holding a nonzero entry, a partial last page by its size', () => {
    const f = new Uint32Array(2 * ENTRIES_PER_PAGE + 100);
    assert.equal(residentFilterBytes(f, false), 0, 'never written: nothing resident');
    f[5] = 1 << 16;
    f[ENTRIES_PER_PAGE - 1] = (1 << 16) | 0xff;
    assert.equal(residentFilterBytes(f, false), SYSTEM_PAGE_BYTES, 'two entries of the first page: one page');
    f[2 * ENTRIES_PER_PAGE + 99] = 2 << 16;
    assert.equal(residentFilterBytes(f, false), SYSTEM_PAGE_BYTES + 100 * 4, 'and the partial last page');
  });

  test('counts a filter cleared wholesale (an epoch wrap) whole', () => {
    const f = new Uint32Array(3 * ENTRIES_PER_PAGE);
    assert.equal(residentFilterBytes(f, true), f.byteLength);
  });
});

// A worker writes the first eighth of a 4 MiB buffer the main thread never accesses: its filter (one Uint32 per
// 8-byte word) reserves 2 MiB, of which it writes the first 256 KiB.
const PROGRAM = `
import { isMainThread, Worker, workerData } from 'node:worker_threads';
if (isMainThread) {
  const a = new Float64Array(new SharedArrayBuffer(4 << 20));
  new Worker(new URL(import.meta.url), { workerData: a });
} else {
  const a = workerData;
  for (let k = 0; k < a.length / 8; k++) a[k] = k;
}
`;

describe('filterResidentBytes under goldilocks run', () => {
  test('counts the pages of the filter a worker wrote, not the whole buffer it reserves', async () => {
    const program = tempFile('filter-eighth.mjs', PROGRAM);
    const report = tempPath('filter-eighth.json');
    await new Promise<void>((done, fail) =>
      execFile(
        process.execPath,
        [CLI, 'run', '--report', report, program],
        { timeout: 120_000 },
        (err, _o, e) => (err ? fail(new Error(`${err.message}\n${e}`)) : done()),
      ),
    );
    const { stats } = JSON.parse(readFileSync(report, 'utf8')) as { stats: Record<string, number> };
    const reserved = (4 << 20) / 2;
    assert.equal(stats.filterBytes, reserved, "the worker's filter only: 4 bytes per 8-byte word");
    const written = reserved / 8;
    assert.ok(
      stats.filterResidentBytes >= written && stats.filterResidentBytes <= written + SYSTEM_PAGE_BYTES,
      `resident ${stats.filterResidentBytes} B, the worker wrote the filter entries of ${written} B`,
    );
  });
});
