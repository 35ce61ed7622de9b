/**
 * The same-epoch filter's representation (`src/live/filter.ts`): an entry counts only in its block's epoch; the
 * first write of a block in an epoch voids the block's older entries, not other blocks'; a run covering a block
 * whole writes it at once, a partial one keeps the block's entries of this epoch; a clear voids every entry. Bytes
 * written count as read (bits 0–7); write bits (8–15) are kept by halves of a word, set by a write of a whole half.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  FILTER_BLOCK,
  filterAdd,
  filterAddRun,
  filterAddStrided,
  filterBits,
  filterBlockVoid,
  filterClear,
  filterCovers,
  newFilter,
} from '../../src/live/filter.js';
import { seeded } from '../helpers/seeded.js';

describe('same-epoch filter', () => {
  test("an entry counts in its block's epoch only; a block's first write in an epoch voids its older entries", () => {
    const f = newFilter(4 * FILTER_BLOCK);
    filterAdd(f, 1, 3, 0x0f);
    filterAdd(f, 1, 3, 0xf000);
    filterAdd(f, 2, 3, 0xff);
    filterAdd(f, FILTER_BLOCK, 3, 0xff00); // another block
    assert.equal(filterBits(f, 1, 3), 0xf0ff, 'bytes 0–3 read, 4–7 written (so read too)');
    assert.equal(filterBits(f, 1, 4), 0, 'another epoch: nothing');
    filterAdd(f, 2, 4, 0x01);
    assert.equal(filterBits(f, 2, 4), 0x01, "epoch 3's bits of the word are void");
    assert.equal(filterBits(f, 1, 4), 0, "and those of the block's other words");
    assert.equal(filterBits(f, FILTER_BLOCK, 3), 0xffff, "another block keeps epoch 3's entries");
    assert.equal(filterBits(f, 3, 4), 0, 'a word never written');
  });

  test('a write sets the write bits of the halves it writes whole, and the read bits of its bytes', () => {
    const f = newFilter(FILTER_BLOCK);
    filterAdd(f, 5, 1, 0x0100); // one byte
    filterAdd(f, 5, 1, 0x0c00); // two bytes
    assert.equal(filterBits(f, 5, 1), 0x000d, 'no half written by one access: read bits only');
    filterAdd(f, 5, 1, 0xf000); // the high half
    assert.equal(filterBits(f, 5, 1), 0xf0fd);
    filterAdd(f, FILTER_BLOCK - 1, 1, 0x0f00); // the last word's low half
    filterAdd(f, FILTER_BLOCK - 1, 1, 0xf000);
    assert.equal(filterBits(f, FILTER_BLOCK - 1, 1), 0xffff, 'both halves, by two accesses');
    assert.equal(filterBits(f, 4, 1), 0, "the other words' bits unchanged");
    assert.equal(filterBits(f, 6, 1), 0);
  });

  test('a run: blocks it covers whole are written at once, partial blocks keep their entries of this epoch', () => {
    const f = newFilter(4 * FILTER_BLOCK);
    filterAdd(f, 2, 5, 0x0f00); // block 0 in epoch 5
    filterAdd(f, 3 * FILTER_BLOCK + 7, 4, 0xff); // block 3 in an older epoch
    filterAddRun(f, 3, 3 * FILTER_BLOCK + 2, 5, 0xff);
    assert.equal(filterBits(f, 2, 5), 0x0f0f, 'before the run, this epoch: kept');
    for (let w = 3; w < 3 * FILTER_BLOCK + 2; w++) assert.equal(filterBits(f, w, 5), 0xff, `word ${w}`);
    assert.equal(filterBits(f, 3 * FILTER_BLOCK + 2, 5), 0, 'after the run: nothing');
    assert.equal(
      filterBits(f, 3 * FILTER_BLOCK + 7, 5),
      0,
      "the older epoch's entry of a partial block: void",
    );
    filterAddRun(f, 2, 4, 5, 0xff00);
    assert.equal(filterBits(f, 2, 5), 0xffff);
    assert.equal(filterBits(f, 3, 5), 0xffff);
    assert.equal(filterBits(f, 4, 5), 0x00ff, 'after the run of writes: reads only');
  });

  test('a run over whole blocks: those of another epoch written at once, one of this epoch keeps its bits', () => {
    const f = newFilter(6 * FILTER_BLOCK);
    filterAddRun(f, 0, 6 * FILTER_BLOCK, 1, 0xff00); // every block in epoch 1, written
    filterAdd(f, 2 * FILTER_BLOCK + 1, 2, 0xf000); // block 2 in epoch 2
    filterAddRun(f, FILTER_BLOCK, 5 * FILTER_BLOCK, 2, 0x00ff);
    for (let w = FILTER_BLOCK; w < 5 * FILTER_BLOCK; w++)
      assert.equal(filterBits(f, w, 2), w === 2 * FILTER_BLOCK + 1 ? 0xf0ff : 0x00ff, `word ${w}`);
    assert.equal(filterBits(f, 0, 2), 0, 'block 0 stays in epoch 1');
    assert.equal(filterBits(f, 0, 1), 0xffff);
    assert.equal(filterBits(f, 5 * FILTER_BLOCK, 2), 0, 'after the run');
    filterAddRun(f, FILTER_BLOCK, 5 * FILTER_BLOCK, 2, 0xff00);
    assert.equal(filterBits(f, 3 * FILTER_BLOCK, 2), 0xffff, 'bits of this epoch are added to');
    assert.equal(filterBits(f, 2 * FILTER_BLOCK + 1, 2), 0xffff);
  });

  test('a clear (an epoch wrap) voids every entry', () => {
    const f = newFilter(2 * FILTER_BLOCK);
    filterAddRun(f, 0, 2 * FILTER_BLOCK, 1, 0xffff);
    filterClear(f);
    for (let w = 0; w < 2 * FILTER_BLOCK; w++) assert.equal(filterBits(f, w, 1), 0);
  });

  test('exact over random accesses: reads covered by the bytes read or written, writes by bytes written only; filterCovers agrees', () => {
    const words = 3 * FILTER_BLOCK;
    for (let seed = 1; seed <= 40; seed++) {
      const next = seeded(seed);
      const f = newFilter(words);
      // the model: per word, the bytes read or written and the bytes written, in the current epoch
      let read = new Uint8Array(words);
      let written = new Uint8Array(words);
      // the halves of each word (bit 0: bytes 0-3, bit 1: bytes 4-7) some one write covered whole: its write bits
      let halvesWritten = new Uint8Array(words);
      const halves = (m: number): number => ((m & 0x0f) === 0x0f ? 1 : 0) | ((m & 0xf0) === 0xf0 ? 2 : 0);
      let epoch = 1;
      for (let step = 0; step < 300; step++) {
        const op = next(20);
        if (op === 0) {
          epoch++; // a synchronization: every entry void
          read = new Uint8Array(words);
          written = new Uint8Array(words);
          halvesWritten = new Uint8Array(words);
          continue;
        }
        const write = next(2) === 1;
        const size = 1 << next(4); // an element of 1, 2, 4 or 8 bytes, aligned
        const mask = ((1 << size) - 1) << (size * next(8 / size));
        if (op === 1) {
          const from = next(words);
          const to = from + 1 + next(words - from);
          filterAddRun(f, from, to, epoch, write ? 0xff00 : 0xff);
          for (let w = from; w < to; w++) {
            read[w] = 0xff;
            if (write) {
              written[w] = 0xff;
              halvesWritten[w] = 3;
            }
          }
        } else if (op === 2) {
          // a lane: every step-th word (a range check's, ../../src/live/spans.ts)
          const from = next(words);
          const stride = 2 + next(20);
          const n = 1 + next(Math.ceil((words - from) / stride));
          filterAddStrided(f, from, n, stride, epoch, write ? mask << 8 : mask);
          for (let i = 0, w = from; i < n; i++, w += stride) {
            read[w] |= mask;
            if (write) {
              written[w] |= mask;
              halvesWritten[w] |= halves(mask);
            }
          }
        } else {
          const w = next(words);
          filterAdd(f, w, epoch, write ? mask << 8 : mask);
          read[w] |= mask;
          if (write) {
            written[w] |= mask;
            halvesWritten[w] |= halves(mask);
          }
        }
        for (let w = 0; w < words; w++) {
          const e = filterBits(f, w, epoch);
          assert.equal(e & 0xff, read[w], `seed ${seed} step ${step} word ${w}: reads`);
          assert.equal(
            (e >>> 8) & ~written[w],
            0,
            `seed ${seed} step ${step} word ${w}: no byte not written`,
          );
          assert.equal(
            halves(e >>> 8),
            halvesWritten[w],
            `seed ${seed} step ${step} word ${w}: the write bits of the halves one write covered`,
          );
          for (const kind of [0, 0x100])
            assert.equal(
              filterCovers(f, w, epoch, mask, kind),
              (((kind ? 0 : e) | (e >>> 8)) & mask) === mask,
              `seed ${seed} step ${step} word ${w}: filterCovers as filterBits`,
            );
          for (const kind of [0, 1]) {
            const end = filterBlockVoid(f, w, epoch, kind);
            for (let x = w; x < end; x++)
              assert.equal(
                kind ? filterBits(f, x, epoch) >>> 8 : filterBits(f, x, epoch),
                0,
                `seed ${seed} step ${step} word ${x}: void up to ${end} for kind ${kind}`,
              );
          }
        }
      }
    }
  });
});
