/**
 * Element accesses through views (`o[k]` on a TypedArray over shared memory, rewritten by `../instrument/`): the
 * hooks `r`/`w` (the fast path, called at every such site), `get`/`set` (keys that are not numbers), `readAll`
 * and `readElements` (`../hooks/hooks.ts`, {@link Runtime}). A view maps to its buffer id, word table and byte
 * offset ({@link View}); an element to the bytes of one shadow word. The fast path skips the check of an access
 * this thread already checked in its current epoch (the same-epoch filter, FastTrack PLDI'09 §3); what the filter
 * does not cover takes the miss path, the word check of `./shadow/`.
 *
 * Hot path: `r`/`w` are closures over this thread's state (its epoch, a two-entry view cache), as the hooks
 * contract wants function values; they stay small enough for V8 to inline at each site. {@link elementAccess}
 * makes them once per thread.
 */
import type { Runtime, SiteFunction, ThreadHooks } from '../hooks/contract.js';
import type { Buffers } from './buffers.js';
import type { CheckBytes, CheckRange, CheckWord } from './context.js';
import { type Coverage, scan, stridedCover, UNARMED, uncovered } from './cover.js';
import { type EpochFilter, filterAdd, filterClear, filterCovers, filterSize, newFilter } from './filter.js';
import { residentFilterBytes } from './filter-census.js';
import { STAT } from './memory/state.js';
import type { Recorder } from './record.js';
import { Access } from './shadow/goldilocks.js';
import type { Sites } from './sites.js';
import {
  loopIterations,
  type SpanContext,
  Spans,
  type SpanView,
  TOUCHED,
  TYPED_TAG,
  touch,
} from './spans.js';

const SAME_EPOCH = STAT.sameEpoch;

/**
 * What the element fast path keeps of a view over shared memory (`./spans.ts` {@link SpanView}). An access covered by
 * its filter (a read of bytes read or written, a write of bytes written, in the current epoch) is not checked again;
 * nor is an access of its kind to an element of the view's covered run in the epoch (`./cover.ts` {@link Coverage}).
 */
type View = SpanView & Coverage;

/** What the element accesses of a thread are checked with. */
export interface ElementChecks {
  hooks: ThreadHooks;
  buffers: Buffers;
  sites: Sites;
  /** The thread's checker's counters (`Shadow.counts`). */
  counts: Float64Array;
  /** The recorder of a recorded run: every access is then checked (and logged), no filter. */
  recorder: Recorder | undefined;
  /**
   * Whether every checked access must reach the shadow (a recorded run logs it, a jumbled run's adversarial memory hears
   * of each write: `./locked.ts` onAccess): {@link CheckBytes} then takes no filter.
   */
  everyAccess: boolean;
  checkWord: CheckWord;
  checkRange: CheckRange;
  /** The range checks of loops (`./spans.ts`), with this checker; undefined when they are off (`--history`). */
  spans?: Pick<SpanContext, 'shadow' | 'counted' | 'alone'>;
  /**
   * Whether this thread is the main thread alone and its accesses need no check (`./alone.ts`; `Context.alone`,
   * not counted): its views then take the fast path's covered case (see `ALONE` in {@link elementAccess}).
   */
  aloneNow: () => boolean;
}

/** The element hooks of a thread, and the start of its next epoch. */
export interface ElementAccess {
  runtime: Required<
    Pick<Runtime, 'get' | 'set' | 'r' | 'w' | 'span' | 'covered' | 'syncs' | 'readAll' | 'readElements'>
  >;
  /**
   * Starts this thread's next epoch: called at each of its synchronization operations (under the list lock,
   * `Context.listLocked`), after which no earlier check covers an access.
   */
  nextEpoch(): void;
  /**
   * Adds the resident bytes of this thread's same-epoch filters (`./filter-census.ts`) to its `filterResidentBytes`
   * counter: once, by the thread's exit handler (`./runtime.ts`, before its counters are flushed); each call adds
   * them again.
   */
  tallyFilters(): void;
  /** A data access of at most 8 bytes of a buffer, a DataView's get or set: see {@link CheckBytes}. */
  checkBytes: CheckBytes;
}

/** The integer index `key` names in `o`, or -1 (not an element: ECMA-262 §10.4.5.14). */
export const index = (o: ArrayBufferView, key: unknown): number => {
  const n = typeof key === 'number' ? key : typeof key === 'string' ? Number(key) : Number.NaN;
  if (typeof key === 'string' && String(n) !== key) return -1;
  return Number.isInteger(n) && n >= 0 && n < (o as Int8Array).length ? n : -1;
};
/** The property key `k` as the plain access would use it (ToPropertyKey of a primitive). */
export const toKey = (k: unknown): PropertyKey =>
  typeof k === 'number' || typeof k === 'string' || typeof k === 'symbol' ? k : String(k);

/** Makes the element hooks of a thread (see the file header). */
export function elementAccess({
  hooks,
  buffers,
  sites,
  counts,
  recorder,
  everyAccess,
  checkWord,
  checkRange,
  spans,
  aloneNow,
}: ElementChecks): ElementAccess {
  const { siteOf } = sites;
  /**
   * This thread's epoch: 1 + the number of synchronization operations it performed (mod 0xffff). Two accesses of one
   * epoch are ordered the same way with every access of other threads (FastTrack's same-epoch case, PLDI'09 §3):
   * the second of the same or a weaker kind to the same bytes needs no check (see {@link View}).
   */
  let epoch = 1;
  /**
   * This thread's count of epochs ({@link Coverage}'s generation; unlike `epoch`, it never wraps), in an object
   * published to the covered loops that run opaque operations (`Runtime.syncs`).
   */
  const syncs = { n: 0 };
  /** The same-epoch filters of the buffers this thread accessed, by buffer id, and their hulls ({@link touch}). */
  const filters: EpochFilter[] = [];
  const touched: Int32Array[] = [];
  /** Whether the filters' block epochs were cleared wholesale (an epoch wrap: every page of them written). */
  let cleared = false;
  /** The views with a covered run in this epoch (`./cover.ts`), each once: their runs end with it. */
  const covered: View[] = [];
  const nextEpoch = (): void => {
    syncs.n++;
    // the main thread's fork ends its being alone, in a list-locked section: the cache forgets a view it held as ALONE
    if (last === ALONE || last2 === ALONE) lastView = last = lastView2 = last2 = undefined;
    if (covered.length !== 0) {
      // not `length = 0` at each operation: a call of V8's length setter, ~7% of an atomic operation's own time
      for (const v of covered) v.rn = v.wn = 0;
      covered.length = 0;
    }
    if (++epoch > 0xffff) {
      for (const f of filters) if (f !== undefined) filterClear(f);
      for (const t of touched) t?.fill(0);
      cleared = true;
      epoch = 1;
    }
  };
  const tallyFilters = (): void => {
    for (const f of filters)
      if (f !== undefined) counts[STAT.filterResidentBytes] += residentFilterBytes(f, cleared);
  };
  /** This thread's filter of buffer `id`, made at its first access (and its hull, `touched[id]`). */
  const filterOf = (id: number): EpochFilter => {
    let f = filters[id];
    if (f === undefined) {
      f = newFilter(Math.ceil(buffers.capacityOf(id) / 8));
      counts[STAT.filterBytes] += filterSize(f);
      filters[id] = f;
      touched[id] = new Int32Array(TOUCHED);
    }
    return f;
  };
  const views = new WeakMap<ArrayBufferView, View>();
  const viewOf = (o: Int8Array): View => {
    const buffer = o.buffer as unknown as SharedArrayBuffer;
    const id = buffers.idOf(buffer);
    const f = filterOf(id);
    const v: View = uncovered({
      id,
      base: buffers.baseOf(id),
      off: o.byteOffset,
      bpe: o.BYTES_PER_ELEMENT,
      len: buffer.growable ? -1 : o.length,
      filter: f.filter,
      filter32: f.filter32,
      writes: f.writes,
      epochs: f.epochs,
      touched: touched[id],
    });
    views.set(o, v);
    return v;
  };
  // a two-entry cache in front of `views`: the views last looked up and the one before (a loop over two views)
  let lastView: ArrayBufferView | undefined;
  let last: View | undefined;
  let lastView2: ArrayBufferView | undefined;
  let last2: View | undefined;
  /**
   * The View of every view over a buffer private to this thread (`Buffers.isPrivate`): its covered runs take every
   * index below 2^30 (a small integer, as in every View: the fields keep their representation), so its accesses take
   * the fast path's covered case, unchecked (counted as same-epoch hits), and its site's cache keeps calling the
   * hook (a view not over shared memory is cached there as such: `../instrument/elements.ts`). Any other index, or
   * a key that is not a number, reaches {@link element}, whose bounds test (length 0) returns at once, and the
   * `get`/`set` hooks, whose range check skips a private buffer. nextEpoch never clears these runs.
   */
  const none = newFilter(8);
  /** A View whose covered runs take every index below 2^30, made as every View is (one hidden class). */
  const coveredEverywhere = (): View => {
    const v = uncovered({
      id: -1,
      base: 0,
      off: 0,
      bpe: 1,
      len: 0,
      filter: none.filter,
      filter32: none.filter32,
      writes: none.writes,
      epochs: none.epochs,
      touched: new Int32Array(TOUCHED),
    });
    v.rn = v.wn = 0x3fffffff;
    return v;
  };
  const PRIVATE = coveredEverywhere();
  /**
   * The View of every view over shared memory while the main thread is alone ({@link aloneNow}): covered as
   * {@link PRIVATE} is, so that its accesses take the fast path's covered case, unchecked (counted as same-epoch hits,
   * as a private buffer's), and the cost of a private buffer's (before, each took the miss path, whose word check then
   * returned: compare-bytes' loop after the joins). Entered in `views`, and replaced by the view's own View at the
   * first lookup once the main thread is no longer alone ({@link viewAt}); the view cache forgets it at the next
   * epoch, which the main thread's next fork starts (`./threads.ts`, under `Context.listLocked`).
   */
  const ALONE = coveredEverywhere();
  /**
   * The views found private (each with the count of this thread's sends, {@link sent}, then): private while that
   * count stands. A send makes them public at once: the view cache forgets its views.
   */
  const privateViews = new WeakMap<ArrayBufferView, number>();
  let sent = 0;
  buffers.onPublish = () => {
    sent++;
    lastView = last = lastView2 = last2 = undefined;
  };
  /**
   * The View of `o`, not in `views`: {@link PRIVATE} when its buffer is private, undefined when it is not shared (out
   * of {@link viewAt}, which the fast path may inline, so that it stays as small as without private buffers).
   */
  const firstView = (o: ArrayBufferView): View | undefined => {
    if (privateViews.get(o) === sent) return PRIVATE;
    if (!hooks.shared(o)) return undefined;
    if (aloneNow()) {
      views.set(o, ALONE);
      return ALONE;
    }
    if (!buffers.isPrivate(o.buffer)) return viewOf(o as Int8Array);
    privateViews.set(o, sent);
    return PRIVATE;
  };
  /**
   * The View of `o` for the fast path ({@link ALONE} while the main thread is alone, {@link PRIVATE} when its buffer is
   * private), or undefined when it is not shared. A view entered while alone, or not, is looked up again once that
   * changed.
   */
  const viewAt = (o: ArrayBufferView): View | undefined => {
    let v = views.get(o);
    if (v === undefined || (v === ALONE) !== aloneNow()) {
      v = firstView(o);
      if (v === undefined) return undefined;
    }
    lastView2 = lastView;
    last2 = last;
    lastView = o;
    last = v;
    return v;
  };
  /** {@link viewAt} behind the view cache (written out in {@link fastPath}, which V8 inlines at every site). */
  const cachedView = (o: ArrayBufferView): View | undefined =>
    o === lastView ? last : o === lastView2 ? last2 : viewAt(o);
  /**
   * An element access outside the view's covered runs (`./cover.ts`): true for a key that is not a number (the site
   * then calls `get`/`set`), else the word's filter test; when it fails (a miss), the word check, after which the
   * filter records the access (not when recording: a recorded run logs every access). The access counts towards the
   * next scan of the view's covered runs, which a miss arms ({@link UNARMED}). A read is covered by bytes read or
   * written in this epoch, a write by bytes written. Returns what the fast path returns.
   *
   * Bounds, miss path and count are written inside on purpose: the function's bytecode is then over V8's size limit
   * for inlining (`--max-inlined-bytecode-size`, 460 bytes in Node 20; test/live/element-inlining.test.ts), so the
   * fast path's own optimized code never inlines it. V8 charges the bytecodes a callee's optimized code inlined to
   * every caller that would inline it, and the fast path is optimized on its own before the loops that call it (they
   * tier up later, by on-stack replacement): with the slow path inside (403e0ce: 130 bytes of its own, 882 inlined),
   * it cost more than a caller's whole budget (920), and was inlined at no site of moldyn's force loop.
   */
  const element = (
    v: View,
    o: ArrayBufferView,
    k: unknown,
    m: SiteFunction,
    i: number,
    c: unknown,
    flags: number,
  ): unknown => {
    if (typeof k !== 'number') return true;
    // not an integer index in bounds: the access touches no memory (ECMA-262 §10.4.5.15–16)
    if (!(k >= 0 && k < (v.len >= 0 ? v.len : (o as Int8Array).length) && Math.floor(k) === k)) return c;
    const byte = v.off + k * v.bpe;
    const w = byte >>> 3;
    const mask = ((1 << v.bpe) - 1) << (byte & 7);
    if (v.len > 0) {
      // the count of accesses outside the covered runs, and the scan it is armed for (`./cover.ts`)
      if (v.mg !== syncs.n) {
        v.mg = syncs.n;
        v.mn = 0;
        v.mt = v.len;
      } else if (++v.mn >= v.mt) {
        const was = v.rn + v.wn;
        scan(v, v, epoch);
        if (was === 0 && v.rn + v.wn > 0) covered.push(v);
        v.mt = UNARMED;
      }
    }
    if (filterCovers(v, w, epoch, mask, flags)) {
      counts[SAME_EPOCH]++;
      return c;
    }
    checkWord(v.id, v.base, w, mask, flags, siteOf(hooks.siteId(m, i)), v.bpe, o, flags ? write : read);
    if (recorder !== undefined) return c;
    filterAdd(v, w, epoch, flags ? mask << 8 : mask);
    touch(v.touched, epoch, w, w + 1);
    if (v.mt === UNARMED) v.mt = v.mn + v.len;
    return c;
  };
  /**
   * The fast path of an element read (`flags` 0) or write (WRITE), hooks contract {@link Runtime.r} / `w`: an
   * element in the view's covered run of this epoch needs no check (`./cover.ts`); anything else takes {@link
   * element}. Kept this small so that V8 inlines it at every site of a function (its inlining budget is counted in
   * bytecodes).
   */
  const fastPath =
    (flags: number) =>
    (o: ArrayBufferView, k: unknown, m: SiteFunction, i: number, c: unknown): unknown => {
      const v = o === lastView ? last : o === lastView2 ? last2 : viewAt(o);
      if (v === undefined) return o;
      // k - lo as an unsigned 32-bit integer: a key that is not an integer index may land in the run, and then
      // skips the check of an access that touches no memory (ECMA-262 §10.4.5.15–16)
      if (typeof k !== 'number' || (flags ? (k - v.wlo) >>> 0 >= v.wn : (k - v.rlo) >>> 0 >= v.rn))
        return element(v, o, k, m, i, c, flags);
      counts[SAME_EPOCH]++;
      return c;
    };
  const read = fastPath(0);
  const write = fastPath(Access.WRITE);
  const ranges =
    spans === undefined || recorder !== undefined
      ? undefined
      : new Spans({
          ...spans,
          viewAt: (o) => {
            const v = cachedView(o);
            return v === PRIVATE || v === ALONE ? undefined : v; // no check
          },
          epoch: () => epoch,
          siteOf: (m, i) => siteOf(hooks.siteId(m, i)),
        });
  /**
   * The cover check of a covered loop (`Hooks.covered`; `../instrument/ranges.ts`): bit k of the answer is set when
   * the k-th access of `list` (six values each, as `Hooks.span`'s) touches only elements of its view's covered run
   * of its kind in this epoch, in any iteration it runs in: its index `first + stride·t` (t below the loop's
   * iterations) stays within the run from the first to the last iteration's, and its per-access check would be a
   * same-epoch hit (a view not over shared memory: no check at all). The loop runs no synchronization (or, with opaque
   * operations, tests `syncs` after each and falls back when it changed), so the epoch and what its filter covers
   * last while the bits are used; nothing is recorded, so an iteration the loop skips or
   * never reaches changes nothing. 0 when range checks are off, a value is not a TypedArray (its element access
   * could run code) or an index not a safe integer.
   */
  const coveredBits: ElementAccess['runtime']['covered'] = (_m, lo, hi, step, inclusive, ints, list) => {
    if (ranges === undefined) return 0;
    const count = loopIterations(lo, hi, step, inclusive, ints);
    if (count < 0) return 0;
    if (count === 0) return -1; // no iteration: no access
    let bits = 0;
    for (let k = 0; 6 * k < list.length; k++) {
      const o = list[6 * k];
      if (TYPED_TAG.call(o) === undefined) return 0;
      const first = list[6 * k + 2] as number;
      const stride = list[6 * k + 3] as number;
      const end = first + stride * (count - 1);
      if (!Number.isSafeInteger(first) || !Number.isSafeInteger(end)) return 0;
      const v = cachedView(o as ArrayBufferView);
      const kind = list[6 * k + 4];
      const a = Math.min(first, end);
      const b = Math.max(first, end);
      if (
        v === undefined ||
        ((kind === 1 || (a >= v.rlo && b < v.rlo + v.rn)) && (kind === 0 || (a >= v.wlo && b < v.wlo + v.wn)))
      )
        bits |= 1 << k;
      else if (
        (stride > 1 || stride < -1) &&
        v.len > 0 &&
        stridedCover(v, first, stride, count, kind as number, epoch, syncs.n)
      )
        bits |= 1 << k;
    }
    if (bits !== 0) counts[STAT.ranges]++;
    return bits;
  };
  const runtime: ElementAccess['runtime'] = {
    get(o, k, site) {
      const key = toKey(k);
      const i = index(o, key);
      if (i >= 0) {
        const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
        checkRange(o.buffer as SharedArrayBuffer, o.byteOffset + i * bpe, bpe, 0, siteOf(site), o, hooks.get);
      }
      return (o as unknown as Record<PropertyKey, unknown>)[key];
    },
    set(o, k, v, site) {
      const key = toKey(k);
      const i = index(o, key);
      if (i >= 0) {
        const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
        checkRange(
          o.buffer as SharedArrayBuffer,
          o.byteOffset + i * bpe,
          bpe,
          Access.WRITE,
          siteOf(site),
          o,
          hooks.set,
        );
      }
      (o as unknown as Record<PropertyKey, unknown>)[key] = v;
      return v;
    },
    r: read,
    w: write,
    span: (m, lo, hi, step, inclusive, ints, list) =>
      ranges?.check(m, lo, hi, step, inclusive, ints, list) === true,
    covered: coveredBits,
    syncs,
    readAll(o, site) {
      const buffer = o.buffer as SharedArrayBuffer;
      checkRange(buffer, o.byteOffset, o.byteLength, 0, siteOf(site), 'TypedArray constructor', hooks.copied);
    },
    readElements(o, site, keys) {
      const buffer = o.buffer as SharedArrayBuffer;
      if (keys === undefined) {
        checkRange(buffer, o.byteOffset, o.byteLength, 0, siteOf(site), 'object spread', hooks.elements);
        return;
      }
      const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
      for (const k of keys)
        if (k < (o as Int8Array).length)
          checkRange(buffer, o.byteOffset + k * bpe, bpe, 0, siteOf(site), o, hooks.elements);
    },
  };
  // the buffer of the last access of checkBytes that took the filter (not private: a buffer once public stays so), its
  // id and word table
  let lastBuffer: SharedArrayBuffer | undefined;
  let lastId = -1;
  let lastBase = 0;
  const checkBytes: CheckBytes = (buffer, off, size, flags, what, fn) => {
    const w = off >>> 3;
    if (everyAccess || off + size > 0xffffffff || (off + size - 1) >>> 3 !== w) {
      checkRange(buffer, off, size, flags, sites.callerSite(fn), what, fn);
      return;
    }
    // the main thread alone, or a buffer private to this thread: no other thread's access can race with this one
    if (aloneNow()) return;
    if (buffer !== lastBuffer) {
      if (buffers.isPrivate(buffer)) return;
      lastId = buffers.idOf(buffer);
      lastBase = buffers.baseOf(lastId);
      lastBuffer = buffer;
    }
    const f = filterOf(lastId);
    const mask = ((1 << size) - 1) << (off & 7);
    if (filterCovers(f, w, epoch, mask, flags)) {
      counts[SAME_EPOCH]++;
      return;
    }
    checkWord(lastId, lastBase, w, mask, flags, sites.callerSite(fn), size, what, fn);
    filterAdd(f, w, epoch, flags ? mask << 8 : mask);
    touch(touched[lastId], epoch, w, w + 1);
  };
  return { runtime, nextEpoch, tallyFilters, checkBytes };
}
