/**
 * The resident part of the same-epoch filters (`src/live/filter-census.ts`): the report's `stats` state, beside the
 * bytes the threads' filters reserve (`filterBytes`), the bytes of the system pages they wrote
 * (`filterResidentBytes`), what the filters cost in RSS (issue 24 §1: shadow memory stated per shared byte).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { FILTER_BLOCK, filterAdd, filterClear, newFilter } from '../../src/live/filter.js';
import { residentFilterBytes, SYSTEM_PAGE_BYTES } from '../../src/live/filter-census.js';
import { cliAsync, tempFile, tempPath } from '../helpers/helpers.js';

/** Words whose Uint8 filter entries fill one system page. */
const WORDS_PER_PAGE = SYSTEM_PAGE_BYTES;

describe('resident filter bytes', () => {
  test('counts the system pages holding a nonzero entry, a partial last page by its size', () => {
    const f = newFilter(2 * WORDS_PER_PAGE + 96);
    assert.equal(residentFilterBytes(f, false), 0, 'never written: nothing resident');
    filterAdd(f, 5, 1, 0xff);
    filterAdd(f, WORDS_PER_PAGE - 1, 1, 0xff00);
    // one page of each: a byte per word; 4 bytes (write bits) and 2 (epoch) per 16 words
    const blocks = f.writes.byteLength + f.epochs.byteLength;
    assert.equal(
      residentFilterBytes(f, false),
      SYSTEM_PAGE_BYTES + blocks,
      'one page of entries, one of write bits, one of epochs',
    );
    filterAdd(f, 2 * WORDS_PER_PAGE + 95, 2, 1);
    assert.equal(residentFilterBytes(f, false), SYSTEM_PAGE_BYTES + 96 + blocks, 'and the partial last page');
  });

  test('counts a page of write bits when a block of it has an epoch, though only reads were filtered there', () => {
    const blocksPerPage = SYSTEM_PAGE_BYTES / 4; // Int32 write bits per block
    const f = newFilter(3 * blocksPerPage * FILTER_BLOCK);
    filterAdd(f, 2 * blocksPerPage * FILTER_BLOCK + 1, 1, 0x0f); // a read in the third page of write bits
    assert.equal(
      residentFilterBytes(f, false),
      SYSTEM_PAGE_BYTES + SYSTEM_PAGE_BYTES + (f.epochs.byteLength - SYSTEM_PAGE_BYTES),
      'a page of entries, the third of write bits, the second (partial) of epochs',
    );
  });

  test('counts the block epochs (and write bits) cleared wholesale (an epoch wrap) whole, the entries as written', () => {
    const f = newFilter(64 * WORDS_PER_PAGE);
    filterAdd(f, 3 * WORDS_PER_PAGE, 7, 1);
    filterClear(f);
    assert.equal(residentFilterBytes(f, true), SYSTEM_PAGE_BYTES + f.writes.byteLength + f.epochs.byteLength);
  });
});

// A worker writes the first eighth of a 4 MiB buffer the main thread never accesses: its filter (a Uint8 per 8-byte
// word, an Int32 and a Uint16 per 16 words) reserves 0.69 MiB, of which it writes the first eighth.
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
    const o = await cliAsync(['run', '--report', report, program], 120_000);
    assert.equal(o.code, 0, o.stderr);
    const { stats } = JSON.parse(readFileSync(report, 'utf8')) as { stats: Record<string, number> };
    const words = (4 << 20) / 8;
    const reserved = words + (6 * words) / 16;
    assert.equal(
      stats.filterBytes,
      reserved,
      "the worker's filter only: 1 byte per 8-byte word, 6 per 16 words",
    );
    const written = reserved / 8;
    assert.ok(
      stats.filterResidentBytes >= written && stats.filterResidentBytes <= written + 2 * SYSTEM_PAGE_BYTES,
      `resident ${stats.filterResidentBytes} B, the worker wrote the filter entries of ${written} B`,
    );
  });
});
