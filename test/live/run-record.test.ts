/**
 * Run-level record of range checks (`Shadow.accessRuns`, `recordRun`, `src/live/shadow/goldilocks.ts`, issue 24
 * §1): the uniform pages of one run whose lists were equal (this thread's one Info of the access, or one shared
 * list, whatever it holds) point to one shared list after it,
 * the state (Info by Info) stays the per-access checks', and another thread's access inside such a page still
 * races, per access and in a range check, which then records nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StateViews } from '../../src/live/memory/state.js';
import { Access, Info, type Shadow, Shared } from '../../src/live/shadow/goldilocks.js';
import { lockOf, PAGE_INTS, SHARED_SLOT } from '../../src/live/shadow/table.js';
import { twoThreads } from '../helpers/two-threads.js';

/** `shadow.accessRuns` of one run of `n` words from heap index `word`, with its pages. */
function run(shadow: Shadow, word: number, n: number, flags: number, site: number): boolean {
  const pages: number[] = [];
  for (let p = lockOf(word); p <= lockOf(word + n - 1); p += PAGE_INTS) pages.push(p);
  return shadow.accessRuns([word, n, flags, site, Access.MASK, 1], Int32Array.from(pages), pages.length);
}

/** The Infos (every field but NEXT) of each of the 4 pages' first words. */
function firstLists(s: StateViews, base: number): string[] {
  const out: string[] = [];
  for (let p = 0; p < 4; p++) {
    const infos: string[] = [];
    for (let e = s.heap[lockOf(base) + p * PAGE_INTS + 1]; e !== 0; e = s.heap[e + Info.NEXT])
      infos.push(Array.from(s.heap.subarray(e + 1, e + Info.SIZE)).join(','));
    out.push(infos.join(' '));
  }
  return out;
}

/**
 * At list position `pos`, a range check over the 32 words of `a`'s buffer and the per-access checks of `b`'s, both
 * accesses with `flags` at `site`: none races, and both leave the same Infos.
 */
function sameAsPerAccess(a: Setup, b: Setup, flags: number, site: number, pos: number): void {
  a.one.pos = pos;
  b.one.pos = pos;
  assert.ok(run(a.one, a.base, 32, flags, site));
  for (let w = 0; w < 32; w++)
    assert.equal(b.one.access(b.base + w, Access.MASK, flags, site, true), undefined);
  assert.deepEqual(firstLists(a.s, a.base), firstLists(b.s, b.base), `at position ${pos}`);
}

type Setup = ReturnType<typeof twoThreads>;

describe('range checks: run-level record of uniform pages', () => {
  test('the owned uniform pages of a run point to one list, with the per-access checks’ Infos', () => {
    const a = twoThreads();
    const b = twoThreads();
    for (const [flags, site, pos] of [
      [Access.WRITE, 5, 1],
      [Access.WRITE, 6, 2],
      [Access.WRITE, 6, 3],
    ])
      sameAsPerAccess(a, b, flags, site, pos);
    const heap = a.s.heap;
    const h = heap[lockOf(a.base) + SHARED_SLOT];
    assert.notEqual(h, 0);
    for (let p = 0; p < 4; p++) {
      const page = lockOf(a.base) + p * PAGE_INTS;
      assert.equal(heap[page + SHARED_SLOT], h, `page ${p} names the run's list`);
      assert.equal(heap[page + 1], heap[h + Shared.FIRST], `page ${p} points to its first Info`);
    }
    // the 4 pages and the thread's candidate: references counted ahead and not used are given back
    assert.equal(heap[h + Shared.REFS], 5);
  });

  test('pages that shared a list before the run share one list after it, whatever the list holds', () => {
    // sor's rows: written (one Info), then read twice at other sites (a read and the write: two Infos per page)
    const a = twoThreads();
    const b = twoThreads();
    const heap = a.s.heap;
    let before = 0;
    for (const [flags, site, pos] of [
      [Access.WRITE, 5, 1],
      [0, 6, 2],
      [0, 7, 3],
    ]) {
      sameAsPerAccess(a, b, flags, site, pos);
      const h = heap[lockOf(a.base) + SHARED_SLOT];
      assert.notEqual(h, 0, `at position ${pos}`);
      for (let p = 1; p < 4; p++)
        assert.equal(
          heap[lockOf(a.base) + p * PAGE_INTS + SHARED_SLOT],
          h,
          `page ${p} names the run's list at ${pos}`,
        );
      // the 4 pages and the thread's candidate; the list before is left to its candidate reference alone
      assert.equal(heap[h + Shared.REFS], 5, `at position ${pos}`);
      if (before !== 0) assert.equal(heap[before + Shared.REFS], 1, `the list before position ${pos}`);
      before = h;
    }
  });

  test('pages whose shared list is the first page’s point to its recorded list: the per-access checks’ Infos', () => {
    // sor's rows: written, then read (a list of two Infos: no Owner record in place), then written again
    const a = twoThreads();
    const b = twoThreads();
    const lists = new Set<number>();
    for (const [flags, site, pos] of [
      [Access.WRITE, 5, 1],
      [0, 6, 2],
      [Access.WRITE, 5, 3],
      [0, 6, 4],
      [0, 7, 4],
      [Access.WRITE, 8, 5],
    ]) {
      sameAsPerAccess(a, b, flags, site, pos);
      if (pos === 1) continue; // empty pages before: each records its own list
      const heap = a.s.heap;
      const h = heap[lockOf(a.base) + SHARED_SLOT];
      assert.notEqual(h, 0, `at position ${pos}`);
      for (let p = 1; p < 4; p++)
        assert.equal(heap[lockOf(a.base) + p * PAGE_INTS + SHARED_SLOT], h, `page ${p}, ${pos}`);
      lists.add(h);
    }
    assert.ok(lists.size > 1);
  });

  test("another thread's access inside such a page races; its range check records nothing", () => {
    const { s, base, one, two } = twoThreads();
    one.pos = 1;
    assert.ok(run(one, base, 32, Access.WRITE, 5));
    one.pos = 2;
    assert.ok(run(one, base, 32, Access.WRITE, 6)); // now one list for the 4 pages
    const before = firstLists(s, base);
    // thread 2 (unordered with thread 1) reads the 4 pages in one range check: nothing recorded
    assert.equal(run(two, base, 32, 0, 7), false);
    assert.deepEqual(firstLists(s, base), before);
    // then reads word 13 (page 1) alone: the race with thread 1's write, found through the shared list
    assert.equal(two.access(base + 13, Access.MASK, 0, 8, false)?.owner, 1);
    // thread 1's next write of the pages races with thread 2's read of word 13 (recorded: not stopped on the race)
    one.pos = 3;
    assert.equal(run(one, base, 32, Access.WRITE, 9), false);
  });
});
