/**
 * The shadow heap past 32-bit lengths (`src/live/memory/state.ts`, issue 24 §1 "Scale"): a heap of more than 2 GiB
 * (whose byte length `>> 2` is negative, the RangeError of crypt at size medium) is viewed whole, allocated past
 * 2^31 bytes, and its words there hold Infos that the Goldilocks check reads; past `--shadow-limit` the allocation
 * throws a ShadowLimitError naming the limit and the option, never a RangeError (also end to end, under
 * `goldilocks run`, with the build: `npm test` builds first). The heap is lazily committed:
 * the test touches a few pages of it and of a 1 GiB shared buffer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Buffers } from '../../src/live/buffers.js';
import {
  allocHeap,
  CTL,
  createState,
  ensureThread,
  rawAtomics,
  ShadowLimitError,
  StateViews,
} from '../../src/live/memory/state.js';
import { SHADOW_LIMIT_DEFAULT, SHADOW_LIMIT_MAX } from '../../src/live/options.js';
import { Access, Info, Shadow, Shared } from '../../src/live/shadow/goldilocks.js';
import { headOf, lockOf, PAGE_INTS, SHARED_SLOT } from '../../src/live/shadow/table.js';
import { cli, tempFile } from '../helpers/helpers.js';

const MiB = 1 << 20;
const GiB = 1 << 30;

/** Fresh state (goldilocks, `--on-race=throw`) with a heap of `limit` MiB. */
const views = (limit?: number): StateViews =>
  new StateViews(createState({ onRace: 0, detector: 0, shadowLimit: limit }));

describe('shadow heap', () => {
  test('defaults to SHADOW_LIMIT_DEFAULT MiB', () => {
    assert.equal(views().heap.length, (SHADOW_LIMIT_DEFAULT * MiB) / 4);
  });

  test('a heap of more than 2 GiB is viewed whole and allocated past 2^31 bytes', () => {
    const s = views(3 * 1024);
    assert.equal(s.heap.length, (3 * GiB) / 4);
    const below = allocHeap(s, (2 * GiB) / 4); // the word table of a 2 GiB buffer
    const past = allocHeap(s, 64);
    assert.ok(below < 2 ** 29 && past * 4 > 2 ** 31, `${past * 4} bytes in`);
    s.heap[past + 63] = 7;
    s.refresh();
    assert.equal(s.heap[past + 63], 7);
  });

  test('a 1 GiB buffer is checked at its end, its Infos past 2^31 bytes', () => {
    const s = views(4 * 1024);
    allocHeap(s, (2 * GiB) / 4); // earlier shadow state
    const t = 1;
    ensureThread(s, t);
    const buffer = new SharedArrayBuffer(GiB);
    const buffers = new Buffers(s);
    const base = buffers.baseOf(buffers.register(buffer));
    const shadow = new Shadow(s, t);
    const last = base + (GiB / 8 - 1); // the word of the buffer's last 8 bytes
    assert.equal(shadow.access(last, 0xff, Access.WRITE, 1, true), undefined);
    shadow.splitPage(lockOf(last)); // pending (src/live/shadow/pending.ts): its word's Info made
    const info = s.heap[headOf(s.heap, last)];
    assert.ok(info * 4 > 2 ** 31, `Info at byte ${info * 4}`);
    assert.equal(s.heap[info + Info.OWNER], t);
    // another thread's unordered read of it races
    ensureThread(s, 2);
    const conflict = new Shadow(s, 2).access(last, 0x01, 0, 2, true);
    assert.equal(conflict?.owner, t);
  });

  test('pages past 2^31 bytes share one list, and a word split out of it races as before', () => {
    const s = views(3 * 1024);
    allocHeap(s, (2 * GiB) / 4); // earlier shadow state
    ensureThread(s, 1);
    ensureThread(s, 2);
    const buffers = new Buffers(s);
    const base = buffers.baseOf(buffers.register(new SharedArrayBuffer(4 * 64)));
    const one = new Shadow(s, 1);
    for (let w = 0; w < 32; w++) one.access(base + w, 0xff, Access.WRITE, 5, true);
    const header = s.heap[lockOf(base) + SHARED_SLOT];
    assert.ok(header * 4 > 2 ** 31, `header at byte ${header * 4}`);
    for (let p = 1; p < 4; p++) assert.equal(s.heap[lockOf(base) + p * PAGE_INTS + SHARED_SLOT], header);
    assert.equal(s.heap[header + Shared.REFS], 5, 'four pages and the candidate');
    assert.equal(new Shadow(s, 2).access(base + 8 + 3, 0x01, 0, 6, true)?.site, 5);
    assert.equal(s.heap[header + Shared.REFS], 4, 'the page split out holds its own copy');
  });

  test('past the limit: a ShadowLimitError naming the limit and --shadow-limit', () => {
    const s = views(64);
    const top = rawAtomics.load(s.ctl, CTL.heapTop);
    assert.throws(
      () => allocHeap(s, (65 * MiB) / 4),
      (e: unknown) =>
        e instanceof ShadowLimitError &&
        !(e instanceof RangeError) &&
        /limit is 64 MiB \(--shadow-limit\)/.test(e.message) &&
        /--shadow-limit <MiB>/.test(e.message) &&
        e.message.includes(`at most ${SHADOW_LIMIT_MAX}`),
    );
    assert.equal(rawAtomics.load(s.ctl, CTL.heapTop), top, 'a refused allocation takes nothing');
    assert.ok(allocHeap(s, MiB / 4) >= top, 'smaller allocations go on');
  });

  test('a word table past the first 4 GiB of the heap: a ShadowLimitError naming the bound', () => {
    const s = views(SHADOW_LIMIT_MAX);
    allocHeap(s, GiB); // earlier shadow state: 4 GiB
    assert.throws(
      () => new Buffers(s).register(new SharedArrayBuffer(64)),
      (e: unknown) => e instanceof ShadowLimitError && /first 4 GiB/.test(e.message),
    );
  });

  test('at the most the runtime can shadow, the message says so', () => {
    const s = views(SHADOW_LIMIT_MAX);
    assert.throws(
      () => allocHeap(s, 2 ** 31 - 1),
      (e: unknown) => e instanceof ShadowLimitError && /most the runtime can shadow/.test(e.message),
    );
  });

  test('goldilocks run past --shadow-limit: the program stops with the message, no RangeError', () => {
    // an 8 MiB buffer's word table alone takes 2 MiB of shadow heap; the buffer is sent first, so it is not private
    // to the main thread (a private buffer is not shadowed: docs/RUNTIME.md "Private buffers")
    const program = tempFile(
      'shadow-limit.mjs',
      [
        "import { MessageChannel } from 'node:worker_threads';",
        'const a = new Float64Array(new SharedArrayBuffer(8 << 20));',
        'const { port1 } = new MessageChannel();',
        'port1.postMessage(a.buffer);',
        'port1.close();',
        'a[0] = 1;',
        'console.log("done");',
        '',
      ].join('\n'),
    );
    const r = cli(['run', '--shadow-limit', '1', program]);
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /ShadowLimitError: goldilocks: the shadow memory limit is reached: .* the limit is 1 MiB \(--shadow-limit\); raise it with 'goldilocks run --shadow-limit <MiB>'/,
    );
    assert.doesNotMatch(r.stderr, /RangeError/);
    const ok = cli(['run', '--shadow-limit', '8', program]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(ok.stdout, 'done\n');
  });
});
