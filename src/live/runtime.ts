/**
 * The Goldilocks runtime (PLDI'07 §1, §5) for JavaScript threads: the default runtime module loaded by
 * `../node/register.ts`. Its default export is a {@link RuntimeFactory}, called once per thread before user code.
 *
 * Per thread it attaches to the process's shared state (`./memory/state.ts`), then every access to a TypedArray over a
 * SharedArrayBuffer reaching the hooks is checked by this thread against the shared shadow state (`./shadow/goldilocks.ts`)
 * before it executes; a race throws {@link DataRaceException} (or is reported, or aborts: `GOLDILOCKS_ON_RACE`).
 * The synchronization it observes (`./intercept/patches.ts` for Atomics, DataView and bulk methods; here for threads and
 * messages) is appended to the synchronization event list:
 * - `new Worker()` → fork cell, written before the worker runs user code (the worker waits for it);
 * - the worker's `'exit'` emitted in its parent → join cell (also what `terminate()`'s promise waits for);
 * - `postMessage` on a Worker, on `parentPort`, on a port of a user `MessageChannel` (also once transferred), on a
 *   `BroadcastChannel` → send cell; its delivery (`'message'` listeners, `onmessage`, `receiveMessageOnPort`; to
 *   each receiving channel of a broadcast) → receive cell of the same message id. The
 *   message travels wrapped with its id and the ids of the shared buffers it carries, so the receiver knows which
 *   shadow memory a received SharedArrayBuffer object is (a cloned SharedArrayBuffer is a new object);
 * - the sync library's lock and volatile reports (`../sync/observer.ts`) → acquire/release, publish/subscribe.
 *
 * Settings (`../node/settings.ts`, from the environment): `GOLDILOCKS_DETECTOR` = `goldilocks` (default) | `fasttrack` |
 * `eraser` (the checker: `./shadow/goldilocks.ts`, `./shadow/fasttrack.ts`, `./shadow/eraser.ts`; shared by all threads like `onRace`);
 * `GOLDILOCKS_ON_RACE` = `throw` (default) | `report` | `abort` (exit code 66); `GOLDILOCKS_REPORT` = a file for
 * the JSON report, written at exit; `GOLDILOCKS_REPORT_DIR` = a directory where each process writes `<pid>.json`
 * (and `aborted` when it aborted), as `goldilocks run` uses it; `GOLDILOCKS_RECORD` = a directory where each
 * process records its run into `<pid>/` (`./record.ts`).
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, threadId } from 'node:worker_threads';
import pc from 'picocolors';
import {
  notSharedCache,
  type Runtime,
  type RuntimeFactory,
  type SiteFunction,
  type ThreadHooks,
  type WorkerHooks,
} from '../hooks/hooks.js';
import { settings } from '../node/settings.js';
import { warn } from '../node/transform.js';
import { type SyncRef, setSyncObserver } from '../sync/observer.js';
import { installPatches } from './intercept/patches.js';
import {
  A,
  allocHeap,
  appendCell,
  attachState,
  Cell,
  CTL,
  createState,
  DEAD,
  ensureBytes,
  ensureThread,
  FORKED,
  getString,
  isPrecise,
  LIVE_DETECTORS,
  lock,
  MAX_BUFFERS,
  putString,
  STAT,
  StateViews,
  Tag,
  TERMINATING,
  unlock,
} from './memory/state.js';
import {
  DataRaceException,
  type LiveRace,
  printErr,
  recordRace,
  siteText,
  textRace,
  writeLiveReport,
} from './races.js';
import { Recorder } from './record.js';
import { collectList } from './shadow/eager.js';
import { EraserShadow } from './shadow/eraser.js';
import { FastTrackShadow } from './shadow/fasttrack.js';
import { ATOMIC, alignPage, type Conflict, PAGE_INTS, packA, Shadow, WRITE } from './shadow/goldilocks.js';

/** `--on-race` modes, in the order stored in the shared settings. */
export const ON_RACE = ['throw', 'report', 'abort'] as const;
/** Exit code of `--on-race=abort` (ThreadSanitizer's `exitcode` default). */
export const EXIT_ABORT = 66;
/** Key of the original Atomics functions on `globalThis`, for tools that must stay invisible to the detector. */
export const RAW_ATOMICS = Symbol.for('goldilocks.rawAtomics');

const MARK = '__goldilocks$message';
/** Bytes of a WebAssembly page (WebAssembly JS API §Memory). */
const WASM_PAGE = 65536;
/**
 * The largest `maximum` (bytes) of a shared WebAssembly.Memory whose word table is sized for it when it is
 * constructed, so that its buffer keeps its id across grows. The table takes as many bytes as the memory, in the
 * detector's heap of at most 2 GiB (state.ts), for all buffers of the run: its pages are committed as they are used.
 */
const MEMORY_TABLE_MAX = 256 << 20;
/** The URL of this package's `dist/` directory: frames of its files are never a user's call site. */
const RUNTIME_DIR = new URL('../', import.meta.url).href;
const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');

/** A message as it travels between instrumented threads. */
interface Wrapped {
  [MARK]: number;
  /** The `a` word of its send and receive cells (`Tag.Message` or `Tag.Broadcast`). */
  a: number;
  sabs: SharedArrayBuffer[];
  ids: number[];
  /** The ids of the buffers of the shared WebAssembly.Memory objects in `v`, in {@link collect}'s order. */
  memoryIds: number[];
  v: unknown;
}

/** A function whose frame (and those above it) a captured stack leaves out. */
// biome-ignore lint/suspicious/noExplicitAny: any function, as Error.captureStackTrace takes it
export type Callee = (...args: any[]) => unknown;

/** What was accessed: a patched method's name, or the view of an element access (named only in a report). */
export type Accessed = string | ArrayBufferView;

/**
 * Checks the data access of bytes [off, off + size) of `buffer` (flags: WRITE) at site `site` (a string id);
 * `fn` is the outermost runtime frame, left out of the racing access's stack.
 * @throws DataRaceException in `throw` mode when it races.
 */
export type CheckRange = (
  buffer: SharedArrayBuffer,
  off: number,
  size: number,
  flags: number,
  site: number,
  what: Accessed,
  fn: Callee,
) => void;

/**
 * Reports conflict `c` of an access of `size` bytes of buffer `id` whose first racing byte is `off`: prints and
 * records it, aborts or throws as `--on-race` says.
 */
export type Race = (
  c: Conflict,
  id: number,
  off: number,
  size: number,
  flags: number,
  site: number,
  what: Accessed,
  fn: Callee,
) => void;

/** Everything a patch needs from this thread's runtime (`./intercept/patches.ts`). */
export interface Context {
  readonly s: StateViews;
  readonly shadow: Shadow;
  readonly t: number;
  /**
   * Is `o` a TypedArray over a SharedArrayBuffer of the program (not one of the detector's state)? The last two
   * values found not to be are kept: asking again about them is a comparison or two.
   */
  readonly shared: (o: unknown) => boolean;
  /** The shadow id of a SharedArrayBuffer, registering it on first sight. */
  idOf(buffer: SharedArrayBuffer): number;
  /** Heap index of buffer `id`'s word table. */
  baseOf(id: number): number;
  /**
   * String id of the user frame calling `fn` (a patched function): the static site of the rewritten call running
   * it (`Hooks.sited`, `Hooks.atomics`), else the frame right below it, or, when `outside`,
   * the first frame below it that is in a file and in neither Node's own code (`node:` modules; builtins such as
   * `JSON.stringify` have no file) nor the runtime's: the call of `console.log` that reached an inspection hook.
   */
  callerSite(fn: Callee, outside?: boolean): number;
  /** Checks a data access (see {@link CheckRange}). */
  checkRange: CheckRange;
  /** Runs `body` holding the list lock. */
  listLocked<T>(body: () => T): T;
  /** Reports a race found by an atomic operation, after its locks are released (see {@link Race}). */
  race: Race;
  /** Does a race stop the access (`throw`, `abort`) rather than only being reported. */
  readonly stopOnRace: boolean;
}

/**
 * The index in `choices` of setting `name` (`../node/settings.ts`); the first choice, with a warning on stderr, when it is
 * another value; the first choice when unset.
 */
function setting(name: string, choices: readonly string[]): number {
  const value = settings[name] ?? choices[0];
  const i = choices.indexOf(value);
  if (i >= 0) return i;
  printErr(`goldilocks: ${name}='${value}' is not one of ${choices.join(', ')}; using ${choices[0]}\n`);
  return 0;
}

const factory: RuntimeFactory = (hooks: ThreadHooks): Runtime => {
  const started = performance.now();
  const recordDir = settings.GOLDILOCKS_RECORD
    ? path.join(settings.GOLDILOCKS_RECORD, String(process.pid))
    : undefined;
  // the main thread reads the settings once; workers share its decision
  const state =
    attachState() ??
    createState(
      {
        onRace: setting('GOLDILOCKS_ON_RACE', ON_RACE),
        detector: setting('GOLDILOCKS_DETECTOR', LIVE_DETECTORS),
      },
      recordDir !== undefined,
    );
  const mode = state.settings.onRace;
  const s = new StateViews(state);
  const t = threadId;
  ensureThread(s, t);
  A.add(s.ctl, CTL.threadCount, 1);
  const shadow = new SHADOWS[LIVE_DETECTORS[state.settings.detector]](s, t);
  const precise = isPrecise(state.settings.detector);
  const recorder = recordDir && state.record ? new Recorder(s, t, recordDir) : undefined;
  if (recorder) shadow.onAccess = recorder.log;
  const stopOnRace = mode !== 1;
  const colors = pc.isColorSupported && process.stderr.isTTY === true;
  Object.defineProperty(globalThis, RAW_ATOMICS, { value: Object.freeze({ ...A }), enumerable: false });

  // ---- buffers --------------------------------------------------------------------------------------------
  const ids = new WeakMap<SharedArrayBuffer, number>();
  const bases: number[] = [];
  const idOf = (buffer: SharedArrayBuffer): number => {
    const id = ids.get(buffer);
    return id === undefined ? registerBuffer(buffer) : id;
  };
  /**
   * Gives `buffer` a new id and a word table for `bytes` bytes (its length, or the most it can grow to).
   * @throws RangeError beyond MAX_BUFFERS buffers.
   */
  function registerBuffer(
    buffer: SharedArrayBuffer,
    bytes = buffer.growable ? buffer.maxByteLength : buffer.byteLength,
  ): number {
    const id = A.add(s.ctl, CTL.nextBuffer, 1) + 1;
    if (id >= MAX_BUFFERS) throw new RangeError(`goldilocks: more than ${MAX_BUFFERS - 1} shared buffers`);
    const words = Math.max(1, Math.ceil(bytes / 8));
    const base = alignPage(allocHeap(s, 2 * words + 2 * PAGE_INTS)); // whole pages
    ensureBytes(state.buffers, (id + 1) * 12);
    if (3 * id + 2 >= s.buffers.length) s.refresh();
    s.buffers[3 * id] = base;
    s.buffers[3 * id + 1] = words;
    A.store(s.buffers, 3 * id + 2, bytes + 1);
    ids.set(buffer, id);
    bases[id] = base;
    return id;
  }
  /** The bytes the word table of buffer `id` covers (any thread's buffer; the atomic load orders its entry's reads). */
  const capacityOf = (id: number): number => {
    if (3 * id + 2 >= s.buffers.length) s.refresh();
    return A.load(s.buffers, 3 * id + 2) - 1;
  };
  const baseOf = (id: number): number => {
    let b = bases[id];
    if (b === undefined) {
      capacityOf(id);
      b = s.buffers[3 * id];
      bases[id] = b;
    }
    return b;
  };
  const adopt = (sabs: SharedArrayBuffer[], list: number[]): void => {
    for (let i = 0; i < sabs.length; i++) if (!ids.has(sabs[i])) ids.set(sabs[i], list[i]);
  };

  // ---- sites ----------------------------------------------------------------------------------------------
  const sites: number[] = [];
  const siteOf = (local: number): number => {
    let g = sites[local];
    if (g === undefined) {
      const l = hooks.siteLocation(local);
      g = putString(s, siteText(l.file, l.line, l.column));
      sites[local] = g;
    }
    return g;
  };
  const frames = new Map<string, number>();
  const holder: { stack?: NodeJS.CallSite[] } = {};
  /** Error.prepareStackTrace that keeps V8's structured call sites: no stack text is formatted. */
  const structured = (_: Error, sites: NodeJS.CallSite[]) => sites;
  /** A frame of Node's own code, of the runtime's, or of no file (a builtin's). */
  const internalFrame = (f: NodeJS.CallSite): boolean => {
    const file = f.getFileName() ?? f.getScriptNameOrSourceURL();
    return !file || file.startsWith('node:') || file.startsWith(RUNTIME_DIR);
  };
  const callerSite = (fn: Callee, outside = false): number => {
    if (hooks.pendingCallee() === fn) return siteOf(hooks.pendingSite()); // a rewritten call's static site
    const limit = Error.stackTraceLimit;
    const prepare = Error.prepareStackTrace;
    Error.stackTraceLimit = outside ? 64 : 1;
    Error.prepareStackTrace = structured;
    Error.captureStackTrace(holder, fn);
    // read while `structured` is installed: V8 prepares the stack on first read
    const frame = outside ? holder.stack?.find((f) => !internalFrame(f)) : holder.stack?.[0];
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
    const file = frame?.getFileName() ?? frame?.getScriptNameOrSourceURL();
    const line = frame?.getLineNumber() ?? 0;
    const column = frame?.getColumnNumber() ?? 0;
    const key = file ? `${file}:${line}:${column}` : '<unknown>';
    let g = frames.get(key);
    if (g === undefined) {
      g = putString(s, file ? siteText(file, line, column) : key);
      frames.set(key, g);
    }
    return g;
  };

  // ---- races ----------------------------------------------------------------------------------------------
  const reportFile = settings.GOLDILOCKS_REPORT_DIR
    ? path.join(settings.GOLDILOCKS_REPORT_DIR, `${process.pid}.json`)
    : settings.GOLDILOCKS_REPORT;
  const program = process.argv[1] ?? '';
  const writeReport = (): void => {
    shadow.flush();
    if (reportFile) writeLiveReport(s, reportFile, program, performance.now() - started);
  };
  const abort = (): void => {
    A.store(s.ctl, CTL.aborted, 1);
    writeReport();
    if (settings.GOLDILOCKS_REPORT_DIR)
      writeFileSync(path.join(settings.GOLDILOCKS_REPORT_DIR, 'aborted'), `${process.pid}\n`);
    if (isMainThread) process.exit(EXIT_ABORT);
    process.kill(process.pid, 'SIGUSR2');
  };
  const toStringTag = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(Int8Array.prototype),
    Symbol.toStringTag,
  )!.get!;
  const race: Race = (c, id, off, size, flags, site, what, fn) => {
    shadow.counts[STAT.races]++;
    const at: { stack?: string } = {};
    Error.captureStackTrace(at, fn);
    if (!at.stack?.includes('\n')) Error.captureStackTrace(at, race); // fn was not on the stack (a reference's setter)
    const variable = `sab#${id}+${off}`;
    const r: LiveRace = {
      location: {
        buffer: id,
        byteOffset: off,
        size,
        elementType: typeof what === 'string' ? what : toStringTag.call(what),
        variable,
      },
      current: {
        index: -1,
        thread: `T${t}`,
        access: flags & WRITE ? 'write' : 'read',
        transactional: false,
        atomic: (flags & ATOMIC) !== 0,
        location: getString(s, site),
        stack: (at.stack ?? '').split('\n').slice(1).join('\n'),
      },
      previous: {
        index: -1,
        thread: `T${c.owner}`,
        access: c.flags & WRITE ? 'write' : 'read',
        transactional: false,
        atomic: (c.flags & ATOMIC) !== 0,
        location: getString(s, c.site),
      },
      lockset: c.lockset.map(Shadow.keyName),
      detail: c.detail,
    };
    if (recordRace(s, r)) printErr(textRace(r, colors, precise));
    if (mode === 2) abort();
    if (stopOnRace) {
      const e = new DataRaceException(r);
      Error.captureStackTrace(e, fn);
      throw e;
    }
  };
  let flushIn = 1 << 16;
  /** Counts `n` word checks; every 2^16 of them this thread's counters are added to the shared ones. */
  const counted = (n: number): void => {
    flushIn -= n;
    if (flushIn <= 0) {
      shadow.flush();
      flushIn = 1 << 16;
    }
  };
  /**
   * Checks the bytes `mask` of word `w` of buffer `id` (word table at heap index `base`) for an access of `size`
   * bytes and reports a conflict at its first racing byte (see {@link Race}).
   */
  const checkWord = (
    id: number,
    base: number,
    w: number,
    mask: number,
    flags: number,
    site: number,
    size: number,
    what: Accessed,
    fn: Callee,
  ): void => {
    counted(1);
    const c = shadow.access(base + 2 * w, mask, flags, site, stopOnRace);
    if (c !== undefined) raceAt(c, id, w, mask, size, flags, site, what, fn);
  };
  /** Reports conflict `c` of an access of the bytes `mask` of word `w` at their first common byte. */
  const raceAt = (
    c: Conflict,
    id: number,
    w: number,
    mask: number,
    size: number,
    flags: number,
    site: number,
    what: Accessed,
    fn: Callee,
  ): void => {
    const common = mask & c.flags;
    race(c, id, w * 8 + (31 - Math.clz32(common & -common)), size, flags, site, what, fn);
  };
  const checkRange: CheckRange = (buffer, off, size, flags, site, what, fn) => {
    if (size <= 0) return;
    const id = idOf(buffer);
    const base = baseOf(id);
    const end = off + size;
    const w0 = Math.floor(off / 8);
    const w1 = Math.ceil(end / 8); // exclusive
    /** The bytes of word w the access touches. */
    const maskOf = (w: number): number =>
      ((1 << Math.min(end - w * 8, 8)) - 1) & ~((1 << Math.max(off - w * 8, 0)) - 1);
    let raced = false; // only the first racing word of one access is reported
    for (let w = w0; w < w1; ) {
      const done = shadow.accessRun(base + 2 * w, w1 - w, maskOf(w), maskOf(w1 - 1), flags, site, stopOnRace);
      counted(done);
      w += done;
      const c = shadow.lastConflict;
      if (c !== undefined && !raced) {
        raced = true;
        raceAt(c, id, w - 1, maskOf(w - 1), size, flags, site, what, fn);
      }
    }
  };
  /**
   * This thread's epoch: 1 + the number of synchronization operations it performed (mod 0xffff). Two accesses of one
   * epoch are ordered the same way with every access of other threads (FastTrack's same-epoch case, PLDI'09 §3):
   * the second of the same or a weaker kind to the same bytes needs no check (see {@link View}).
   */
  let epoch = 1;
  /** The same-epoch filters of the buffers this thread accessed, by buffer id. */
  const filters: Uint32Array[] = [];
  const listLocked = <T>(body: () => T): T => {
    if (++epoch > 0xffff) {
      for (const f of filters) f?.fill(0);
      epoch = 1;
    }
    lock(s, s.ctl, CTL.listLock);
    try {
      return body();
    } finally {
      shadow.pos = s.ctl[CTL.listEnd];
      unlock(s.ctl, CTL.listLock);
      if (s.gcDue) collectList(s, shadow);
    }
  };
  /** The detector's own buffers: its code may iterate views of them with patched methods, never checked. */
  const internal = new WeakSet<ArrayBufferLike>(
    Object.values(state).filter((b): b is SharedArrayBuffer => b instanceof SharedArrayBuffer),
  );
  const notShared = notSharedCache((o) => hooks.shared(o) && !internal.has((o as Int8Array).buffer));
  const ctx: Context = {
    s,
    shadow,
    t,
    shared: (o) => !notShared(o),
    idOf,
    baseOf,
    callerSite,
    checkRange,
    listLocked,
    race,
    stopOnRace,
  };
  const { sitedMethods, originals } = installPatches(ctx);

  // ---- shared WebAssembly.Memory ------------------------------------------------------------------------------
  /**
   * After `memory.grow()` a shared memory's `buffer` is a new SharedArrayBuffer object over the same memory, longer (in
   * every thread, once it reads `buffer` again). It keeps the id of the memory's first buffer, so that an access
   * through a view of the new buffer is checked against the accesses before the grow — when that id's word table
   * covers the new length: the table of a shared memory constructed in this thread covers its `maximum` (up to
   * MEMORY_TABLE_MAX bytes), that of one received in a message what its sender's covers. Otherwise (a memory created
   * by a wasm module, or a larger maximum) the grown buffer gets a new id, with a warning: a race between an access
   * before the grow and one after is then missed.
   */
  const memoryIds = new WeakMap<WebAssembly.Memory, number>();
  /** The `maximum` in bytes of the shared memories constructed in this thread (read from their descriptor). */
  const memoryMax = new WeakMap<WebAssembly.Memory, number>();
  let warnedGrow = false;
  const followMemory = (memory: WebAssembly.Memory, buffer: SharedArrayBuffer): void => {
    const known = ids.get(buffer);
    if (known !== undefined) {
      if (!memoryIds.has(memory)) memoryIds.set(memory, known);
      return;
    }
    const id = memoryIds.get(memory);
    if (id !== undefined && capacityOf(id) >= buffer.byteLength) {
      ids.set(buffer, id);
      return;
    }
    if (id !== undefined && !warnedGrow) {
      warnedGrow = true;
      warn(
        'a shared WebAssembly.Memory grew beyond the length its accesses are tracked for: accesses after the grow ' +
          'are checked as those of a new buffer (a race with an access before it is missed)',
      );
    }
    const max = memoryMax.get(memory);
    memoryIds.set(
      memory,
      max !== undefined && max <= MEMORY_TABLE_MAX ? registerBuffer(buffer, max) : registerBuffer(buffer),
    );
  };
  const Memory = WebAssembly.Memory;
  const bufferProperty = Object.getOwnPropertyDescriptor(Memory.prototype, 'buffer');
  const bufferGetter = bufferProperty?.get;
  /** `memory.buffer` without {@link followMemory} (for a received memory, before its id is known). */
  const rawBuffer = (memory: WebAssembly.Memory): ArrayBufferLike =>
    bufferGetter === undefined ? memory.buffer : (bufferGetter.call(memory) as ArrayBufferLike);
  if (bufferGetter !== undefined) {
    const get = function (this: WebAssembly.Memory) {
      const buffer = bufferGetter.call(this) as ArrayBufferLike;
      if (buffer instanceof SharedArrayBuffer) followMemory(this, buffer);
      return buffer;
    };
    Object.defineProperty(get, 'name', { value: bufferGetter.name });
    Object.defineProperty(Memory.prototype, 'buffer', { ...bufferProperty, get });
  }
  /**
   * The constructor sees the descriptor through a proxy that notes the `maximum` it reads: the user's object is read
   * once, by the constructor, as without the runtime (a getter there runs once; its `this` is the descriptor).
   */
  WebAssembly.Memory = new Proxy(Memory, {
    construct(target, args, newTarget) {
      const d: unknown = args[0];
      if ((typeof d !== 'object' && typeof d !== 'function') || d === null)
        return Reflect.construct(target, args, newTarget);
      let maximum: unknown;
      const seen = new Proxy(d, {
        get(o, key) {
          const value: unknown = Reflect.get(o, key);
          if (key === 'maximum') maximum = value;
          return value;
        },
      });
      const memory = Reflect.construct(target, [seen, ...args.slice(1)], newTarget) as WebAssembly.Memory;
      // a primitive the constructor converted without running user code (an object's valueOf is not run again)
      const pages = typeof maximum === 'number' || typeof maximum === 'string' ? Number(maximum) : Number.NaN;
      if (Number.isFinite(pages) && rawBuffer(memory) instanceof SharedArrayBuffer)
        memoryMax.set(memory, pages * WASM_PAGE);
      return memory;
    },
  });

  // ---- messages -------------------------------------------------------------------------------------------
  const userPorts = new WeakSet<object>();
  /** Worker constructors running in this thread: their internal messages (before register ran there) pass as they are. */
  let spawning = 0;
  const MessagePort = threads.MessagePort;
  /**
   * Marks the ports of a received value as user ports, and gives its shared WebAssembly.Memory objects the ids the
   * sender listed (`list`, in {@link collect}'s order: a memory is cloned as a new object whose buffer is a new
   * SharedArrayBuffer object, not among the message's cloned buffers); {@link followMemory} then gives each buffer
   * that id, or a new one if the memory grew past what the id's word table covers.
   */
  function received(value: unknown, list: number[] = []): void {
    const memories: WebAssembly.Memory[] = [];
    collect(value, undefined, memories);
    for (let i = 0; i < memories.length && i < list.length; i++) {
      memoryIds.set(memories[i], list[i]);
      followMemory(memories[i], rawBuffer(memories[i]) as SharedArrayBuffer);
    }
  }
  /** The ids of the buffers of `memories` (see {@link received}). */
  const memoryIdsOf = (memories: WebAssembly.Memory[]): number[] =>
    memories.map((m) => idOf(m.buffer as unknown as SharedArrayBuffer));
  /**
   * Walks a message's value (at most 100k nodes) for shared buffers (into `out`), shared WebAssembly.Memory objects
   * (into `memories`) and ports (marked as user ports).
   */
  function collect(value: unknown, out?: SharedArrayBuffer[], memories?: WebAssembly.Memory[]): void {
    if (value === null || typeof value !== 'object') return;
    const seen = new Set<object>();
    const todo: unknown[] = [value];
    while (todo.length && seen.size < 100_000) {
      const v = todo.pop();
      if (v === null || typeof v !== 'object' || seen.has(v)) continue;
      seen.add(v);
      if (v instanceof SharedArrayBuffer) out?.push(v);
      else if (ArrayBuffer.isView(v)) {
        if (v.buffer instanceof SharedArrayBuffer) out?.push(v.buffer);
      } else if (v instanceof WebAssembly.Memory) {
        if (rawBuffer(v) instanceof SharedArrayBuffer) memories?.push(v);
      } else if (v instanceof MessagePort) userPorts.add(v);
      else if (v instanceof Map) for (const [k, x] of v) todo.push(k, x);
      else if (v instanceof Set) for (const x of v) todo.push(x);
      else if (Array.isArray(v)) for (const x of v) todo.push(x);
      else for (const x of Object.values(v)) todo.push(x);
    }
  }
  function wrap(value: unknown, tag: number = Tag.Message): Wrapped {
    const sabs: SharedArrayBuffer[] = [];
    const memories: WebAssembly.Memory[] = [];
    collect(value, sabs, memories);
    const list = sabs.map(idOf);
    const m = A.add(s.ctl, CTL.nextMessage, 1) + 1;
    const a = packA(tag, 0);
    listLocked(() => appendCell(s, Cell.Send, t, a, m));
    return { [MARK]: m, a, sabs, ids: list, memoryIds: memoryIdsOf(memories), v: value };
  }
  function unwrap(data: unknown): unknown {
    if (data === null || typeof data !== 'object' || !(MARK in data)) return data;
    const w = data as Wrapped;
    adopt(w.sabs, w.ids);
    received(w.v, w.memoryIds);
    listLocked(() => appendCell(s, Cell.Receive, t, w.a, w[MARK]));
    return w.v;
  }
  const portProto = MessagePort.prototype as unknown as Record<PropertyKey, Callee>;
  const postMessage = portProto.postMessage;
  portProto.postMessage = function (this: object, value: unknown, ...rest: unknown[]) {
    return postMessage.call(this, spawning === 0 && userPorts.has(this) ? wrap(value) : value, ...rest);
  };
  const DISPATCH = Symbol.for('nodejs.internal.kHybridDispatch');
  const dispatch = portProto[DISPATCH];
  if (typeof dispatch === 'function') {
    portProto[DISPATCH] = function (this: unknown, value: unknown, type: string, event: unknown) {
      return dispatch.call(this, type === 'message' ? unwrap(value) : value, type, event);
    };
  } else
    printErr('goldilocks: cannot observe message delivery on this Node version; message edges are missing\n');
  const receive = threads.receiveMessageOnPort;
  threads.receiveMessageOnPort = (port) => {
    const r = receive(port);
    if (r) r.message = unwrap(r.message);
    return r;
  };
  const OriginalChannel = threads.MessageChannel;
  class MessageChannel extends OriginalChannel {
    constructor() {
      super();
      userPorts.add(this.port1);
      userPorts.add(this.port2);
    }
  }
  threads.MessageChannel = MessageChannel;
  (globalThis as Record<string, unknown>).MessageChannel = MessageChannel;
  // A BroadcastChannel (the global one is worker_threads') posts on an internal MessagePort, and Node delivers the
  // message to every other channel of that name through that channel's internal port, i.e. through the dispatch
  // above: wrapping at the post gives each receiver a receive cell of the same message id (Tag.Broadcast: a
  // vector-clock peer must keep its clock for every receiver).
  const broadcastProto = threads.BroadcastChannel.prototype as unknown as Record<string, Callee>;
  const broadcast = broadcastProto.postMessage;
  broadcastProto.postMessage = function (this: unknown, ...args: unknown[]) {
    return args.length === 0 ? broadcast.call(this) : broadcast.call(this, wrap(args[0], Tag.Broadcast));
  };

  // structuredClone of a shared buffer (or of a value holding one) returns a new SharedArrayBuffer object over the
  // same memory (HTML StructuredSerialize): cloned as `{ sabs, v }`, the clones in `sabs` are the very objects in
  // the cloned `v`, and they get the originals' ids, so accesses through either alias are checked as one buffer
  const clone = globalThis.structuredClone;
  globalThis.structuredClone = function structuredClone(value: unknown, ...options: unknown[]): unknown {
    const sabs: SharedArrayBuffer[] = [];
    const memories: WebAssembly.Memory[] = [];
    collect(value, sabs, memories);
    if (sabs.length === 0 && memories.length === 0)
      return Reflect.apply(clone, undefined, [value, ...options]);
    const list = sabs.map(idOf);
    const memoryIds = memoryIdsOf(memories);
    const r = Reflect.apply(clone, undefined, [{ sabs, v: value }, ...options]) as {
      sabs: SharedArrayBuffer[];
      v: unknown;
    };
    adopt(r.sabs, list);
    received(r.v, memoryIds);
    return r.v;
  } as typeof clone;

  // ---- threads --------------------------------------------------------------------------------------------
  if (!isMainThread) {
    // the parent appends the fork cell after its Worker constructor returns: wait for it (a missing one would
    // make this thread's first accesses race with everything its parent did before forking)
    const deadline = Date.now() + 10_000;
    for (;;) {
      const f = A.load(s.threads, t);
      if (f & FORKED) break;
      if (Date.now() > deadline) {
        printErr(`goldilocks: thread T${t} started without its fork event; its parent may have died\n`);
        break;
      }
      A.wait(s.threads, t, f, 100);
    }
    // no cell of this thread yet: its accesses' walks may start at the list's current end (Shadow.pos)
    shadow.pos = A.load(s.ctl, CTL.listEnd);
    const spawn = threads.getEnvironmentData(SPAWN_KEY) as
      | { sabs: SharedArrayBuffer[]; ids: number[]; memoryIds: number[] }
      | undefined;
    if (spawn) adopt(spawn.sabs, spawn.ids);
    if (threads.parentPort) userPorts.add(threads.parentPort);
    received(threads.workerData, spawn?.memoryIds);
  }
  const markTerminating = (child: number): void => {
    const todo = [child];
    while (todo.length) {
      const c = todo.pop()!;
      A.or(s.threads, c, TERMINATING);
      for (let i = 0; i < s.parents.length; i++) if (A.load(s.parents, i) === c + 1) todo.push(i);
    }
  };
  const workerHooks: WorkerHooks = {
    beforeSpawn(options) {
      const sabs: SharedArrayBuffer[] = [];
      const memories: WebAssembly.Memory[] = [];
      collect(options?.workerData, sabs, memories);
      threads.setEnvironmentData(SPAWN_KEY, {
        sabs,
        ids: sabs.map(idOf),
        memoryIds: memoryIdsOf(memories),
      } as never);
      spawning++;
    },
    spawnFailed() {
      spawning--;
    },
    afterSpawn(worker) {
      spawning--;
      const child = worker.threadId;
      ensureThread(s, child);
      A.store(s.parents, child, t + 1);
      listLocked(() => appendCell(s, Cell.Fork, t, 0, child));
      A.or(s.threads, child, FORKED);
      A.notify(s.threads, child);
      const w = worker as unknown as Record<string, Callee>;
      const emit = w.emit;
      w.emit = function (this: unknown, event: string, ...args: unknown[]) {
        if (event === 'exit') {
          listLocked(() => appendCell(s, Cell.Join, t, 0, child));
          A.or(s.threads, child, DEAD);
        }
        return emit.call(this, event, ...args);
      };
      const terminate = w.terminate;
      w.terminate = function (this: unknown, ...args: unknown[]) {
        markTerminating(child);
        return terminate.apply(this, args);
      };
      const post = w.postMessage;
      w.postMessage = function (this: unknown, value: unknown, ...rest: unknown[]) {
        return post.call(this, wrap(value), ...rest);
      };
    },
  };

  // ---- sync library ---------------------------------------------------------------------------------------
  const held = shadow.held;
  const syncCell = (kind: number, tag: number, ref: SyncRef): number => {
    const a = packA(tag, idOf(ref.buffer));
    listLocked(() => appendCell(s, kind, t, a, ref.byteOffset));
    return a;
  };
  setSyncObserver({
    acquire(ref) {
      held.push(syncCell(Cell.Acquire, Tag.Named, ref), ref.byteOffset);
    },
    release(ref) {
      const a = syncCell(Cell.Release, Tag.Named, ref);
      for (let i = held.length - 2; i >= 0; i -= 2) {
        if (held[i] === a && held[i + 1] === ref.byteOffset) {
          held.splice(i, 2);
          break;
        }
      }
    },
    publish(ref) {
      syncCell(Cell.Publish, Tag.Volatile, ref);
    },
    subscribe(ref) {
      syncCell(Cell.Subscribe, Tag.Volatile, ref);
    },
  });

  // ---- exit -----------------------------------------------------------------------------------------------
  if (isMainThread) {
    process.on('exit', () => {
      writeReport();
      recorder?.flush();
      recorder?.dump(process.argv.slice(1).join(' '));
    });
    if (mode === 2) process.on('SIGUSR2', () => process.exit(EXIT_ABORT));
  } else
    process.on('exit', () => {
      shadow.flush();
      recorder?.flush();
    });

  // ---- element accesses -----------------------------------------------------------------------------------
  const index = (o: ArrayBufferView, key: unknown): number => {
    const n = typeof key === 'number' ? key : typeof key === 'string' ? Number(key) : Number.NaN;
    if (typeof key === 'string' && String(n) !== key) return -1;
    return Number.isInteger(n) && n >= 0 && n < (o as Int8Array).length ? n : -1;
  };
  /**
   * What the element fast path keeps of a view over shared memory (per thread): its buffer `id`, the heap index
   * `base` of the buffer's word table, `off` (byteOffset), `bpe` (bytes per element), `len` (its length, -1 when
   * it tracks a growable buffer's length), and `filter`: per word of the buffer, the bytes this thread read (bits
   * 0–7) and wrote (bits 8–15) in epoch `bits 16–31` after a check. An access covered by the filter (a read of
   * bytes read or written, a write of bytes written, in the current epoch) is not checked again.
   */
  interface View {
    id: number;
    base: number;
    off: number;
    bpe: number;
    len: number;
    filter: Uint32Array;
  }
  const views = new WeakMap<ArrayBufferView, View>();
  const counts = shadow.counts;
  const viewOf = (o: Int8Array): View => {
    const buffer = o.buffer as unknown as SharedArrayBuffer;
    const id = idOf(buffer);
    let filter = filters[id];
    if (filter === undefined) {
      filter = new Uint32Array(Math.ceil(capacityOf(id) / 8));
      filters[id] = filter;
    }
    const v: View = {
      id,
      base: baseOf(id),
      off: o.byteOffset,
      bpe: o.BYTES_PER_ELEMENT,
      len: buffer.growable ? -1 : o.length,
      filter,
    };
    views.set(o, v);
    return v;
  };
  let lastView: ArrayBufferView | undefined; // a one-entry cache in front of `views`
  let last: View | undefined;
  /** The View of `o` for the fast path, or undefined when it is not shared. */
  const viewAt = (o: ArrayBufferView): View | undefined => {
    let v = views.get(o);
    if (v === undefined) {
      if (!hooks.shared(o)) return undefined;
      v = viewOf(o as Int8Array);
    }
    lastView = o;
    last = v;
    return v;
  };
  /**
   * The byte offset in its buffer of element `k` of `o`, or -1 when `k` is not an integer index in bounds (then the
   * access touches no memory: ECMA-262 §10.4.5.15–16).
   */
  const byteOf = (v: View, o: ArrayBufferView, k: number): number =>
    k >= 0 && k < (v.len >= 0 ? v.len : (o as Int8Array).length) && Math.floor(k) === k
      ? v.off + k * v.bpe
      : -1;
  /** An element access the filter did not cover: the word check, then the filter records it (not when recording). */
  const miss = (
    v: View,
    o: ArrayBufferView,
    m: SiteFunction,
    i: number,
    byte: number,
    flags: number,
  ): void => {
    const w = byte >>> 3;
    const mask = ((1 << v.bpe) - 1) << (byte & 7);
    checkWord(v.id, v.base, w, mask, flags, siteOf(hooks.siteId(m, i)), v.bpe, o, flags ? write : read);
    if (recorder !== undefined) return; // a recorded run writes every access: no filter
    const e = v.filter[w];
    v.filter[w] = (e >>> 16 === epoch ? e : epoch << 16) | (flags ? mask << 8 : mask);
  };
  /**
   * The fast path of an element read (`flags` 0) or write (WRITE), hooks contract {@link Runtime.r} / `w`; small
   * enough for V8 to inline at each site. A read is covered by bytes read or written in this epoch, a write by
   * bytes written.
   */
  const fastPath =
    (flags: number) =>
    (o: ArrayBufferView, k: unknown, m: SiteFunction, i: number, c: unknown): unknown => {
      const v = o === lastView ? last : viewAt(o);
      if (v === undefined) return o;
      if (typeof k !== 'number') return true;
      const byte = byteOf(v, o, k);
      if (byte < 0) return c;
      const e = v.filter[byte >>> 3];
      const mask = ((1 << v.bpe) - 1) << (byte & 7);
      if (e >>> 16 !== epoch || (((flags ? 0 : e) | (e >>> 8)) & mask) !== mask)
        miss(v, o, m, i, byte, flags);
      else counts[SAME_EPOCH]++;
      return c;
    };
  const read = fastPath(0);
  const write = fastPath(WRITE);
  const toKey = (k: unknown): PropertyKey =>
    typeof k === 'number' || typeof k === 'string' || typeof k === 'symbol' ? k : String(k);
  const runtime: Runtime = {
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
          WRITE,
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
    sitedMethods,
    originals,
    worker: workerHooks,
  };
  return runtime;
};

/** The checker class of each `--detector`. */
const SHADOWS = { goldilocks: Shadow, fasttrack: FastTrackShadow, eraser: EraserShadow } as const;

/** Key of the shared buffers of a spawned worker's `workerData` in the environment data. */
const SPAWN_KEY = 'goldilocks.spawn';
const SAME_EPOCH = STAT.sameEpoch;

export default factory;
