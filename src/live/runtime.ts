/**
 * The Goldilocks runtime (PLDI'07 §1, §5) for JavaScript threads: the default runtime module loaded by
 * `../node/register.ts`. Its default export is a {@link RuntimeFactory}, called once per thread before user code,
 * which wires this thread's parts together.
 *
 * Per thread it attaches to the process's shared state (`./memory/state.ts`), then every access to a TypedArray over a
 * SharedArrayBuffer reaching the hooks (`./views.ts`) is checked by this thread against the shared shadow state
 * (`./shadow/goldilocks.ts`) before it executes; a race throws {@link DataRaceException} (or is reported, or aborts:
 * `GOLDILOCKS_ON_RACE`). The synchronization it observes is appended to the synchronization event list:
 * - Atomics (and the data accesses of DataView and bulk methods): `./intercept/`;
 * - `new Worker()` → fork cell, the worker's `'exit'` → join cell: `./threads.ts`;
 * - `postMessage` and its delivery → send and receive cells of one message id: `./messages.ts`;
 * - the sync library's lock and volatile reports (`../sync/observer.ts`) → acquire/release, publish/subscribe:
 *   `./sync-observer.ts`;
 * - goldilocks/annotations (`../annotations/observer.ts`) → publish/subscribe of a key, benign ranges:
 *   `./annotation-observer.ts`.
 * - the STM's commits (`../stm/observer.ts`) → commit(R, W) cells, their accesses checked as transactional:
 *   `./stm-observer.ts`.
 * Shared buffers and WebAssembly memories get their ids in `./buffers.ts`, sites theirs in `./sites.ts`; what the
 * parts share is the per-thread {@link Context} (`./context.ts`). Races are reported here (below "races").
 *
 * Settings (`../node/settings.ts`, from the environment): `GOLDILOCKS_DETECTOR` = `goldilocks` (default) | `fasttrack` |
 * `eraser` (the checker: `./shadow/goldilocks.ts`, `./shadow/fasttrack.ts`, `./shadow/eraser.ts`; shared by all threads like `onRace`);
 * `GOLDILOCKS_ON_RACE` = `throw` (default) | `report` | `abort` (exit code 66); `GOLDILOCKS_REPORT` = a file for
 * the JSON report, written at exit; `GOLDILOCKS_REPORT_DIR` = a directory where each process writes `<pid>.json`
 * (and `aborted` when it aborted), as `goldilocks run` uses it; `GOLDILOCKS_RECORD` = a directory where each
 * process records its run into `<pid>/` (`./record.ts`); `GOLDILOCKS_SUPPRESSIONS` = a suppressions file
 * (`--suppressions`; races it suppresses, and races on bytes annotated benign, are counted, not reported:
 * `./excuses.ts`);
 * `GOLDILOCKS_SHADOW_LIMIT` = the shadow heap's size in MiB
 * (`./options.ts`; past it, a `ShadowLimitError` names the limit and the option);
 * `GOLDILOCKS_HISTORY=1` (`--history`): every checked access
 * keeps its stack, which a race then prints for its previous access (not with `GOLDILOCKS_RECORD`), and loops are
 * not range-checked;
 * `GOLDILOCKS_RANGES=0`: loops are not range-checked (`./spans.ts`): each access is checked on its own, as with
 * `--history`, a recorded or a jumbled run (for differential tests and measurements);
 * `GOLDILOCKS_ALONE=0`: the main thread's accesses are checked and recorded while it alone runs (`./alone.ts`), as in
 * a recorded or a jumbled run (for differential tests and measurements).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import type { Runtime, RuntimeFactory, ThreadHooks, WorkerHooks } from '../hooks/contract.js';
import { notSharedCache } from '../hooks/views.js';
import { settings } from '../node/settings.js';
import { writeJsonReport } from '../report/json.js';
import type { MemoryLocation, RaceRecord } from '../report/race.js';
import { suppressionOf } from '../report/suppressions.js';
import { colorsFor, textRace, textSummary } from '../report/text.js';
import { mainAlone } from './alone.js';
import { observeAnnotations } from './annotation-observer.js';
import { Buffers, Memories } from './buffers.js';
import type { Accessed, Callee, CheckRange, CheckWord, Context, Race } from './context.js';
import { observeEnvironment } from './environment.js';
import { benignReason, liveSuppressions } from './excuses.js';
import { lockDataViews } from './intercept/dataview.js';
import { installPatches } from './intercept/index.js';
import { patchSharedSlice } from './intercept/shared-buffer.js';
import { lockedFastPaths } from './jumble/fast.js';
import { jumbleMemory, writeJumbleStats } from './jumble/setup.js';
import { LockNames } from './lock-names.js';
import { LockedElements } from './locked.js';
import {
  attachState,
  CTL,
  createState,
  ensureThread,
  lock,
  rawAtomics,
  STAT,
  StateViews,
  unlock,
} from './memory/state.js';
import { getString, putString } from './memory/strings.js';
import { Messages } from './messages.js';
import {
  EXIT_ABORT,
  isPrecise,
  LIVE_DETECTORS,
  ON_RACE,
  SHADOW_LIMIT_DEFAULT,
  SHADOW_LIMIT_MAX,
} from './options.js';
import { countRecordedRace, DataRaceException, liveReport, printErr, recordRace } from './races.js';
import { Recorder } from './record.js';
import { collectList } from './shadow/eager.js';
import { EraserShadow } from './shadow/eraser.js';
import { FastTrackShadow } from './shadow/fasttrack.js';
import { Access, type Conflict, Shadow } from './shadow/goldilocks.js';
import { Sites, structured } from './sites.js';
import { observeStm } from './stm-observer.js';
import { observeSync } from './sync-observer.js';
import { testNames } from './tests.js';
import { awaitFork, workerHooks } from './threads.js';
import { elementAccess } from './views.js';

/** Key of the original Atomics functions on `globalThis`, for tools that must stay invisible to the detector. */
export const RAW_ATOMICS = Symbol.for('goldilocks.rawAtomics');

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

/** `GOLDILOCKS_SHADOW_LIMIT` (MiB, 1 to SHADOW_LIMIT_MAX); the default, with a warning on stderr, when it is another value. */
function shadowLimit(): number {
  const value = settings.GOLDILOCKS_SHADOW_LIMIT;
  if (value === undefined) return SHADOW_LIMIT_DEFAULT;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= SHADOW_LIMIT_MAX) return n;
  printErr(
    `goldilocks: GOLDILOCKS_SHADOW_LIMIT='${value}' is not a number of MiB from 1 to ${SHADOW_LIMIT_MAX}; using ${SHADOW_LIMIT_DEFAULT}\n`,
  );
  return SHADOW_LIMIT_DEFAULT;
}

const factory: RuntimeFactory = (hooks: ThreadHooks): Runtime => {
  // process.hrtime, not the global performance, whose first use loads perf_hooks in every thread
  const started = process.hrtime.bigint();
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
        shadowLimit: shadowLimit(),
      },
      recordDir !== undefined,
    );
  const mode = state.settings.onRace;
  const s = new StateViews(state);
  const t = threadId;
  ensureThread(s, t);
  rawAtomics.add(s.ctl, CTL.threadCount, 1);
  const shadow = new SHADOWS[LIVE_DETECTORS[state.settings.detector]](s, t);
  const precise = isPrecise(state.settings.detector);
  const recorder = recordDir && state.record ? new Recorder(s, t, recordDir) : undefined;
  const stopOnRace = mode !== 1;
  const colors = colorsFor(process.stderr);
  Object.defineProperty(globalThis, RAW_ATOMICS, {
    value: Object.freeze({ ...rawAtomics }),
    enumerable: false,
  });

  // ---- buffers and sites ----------------------------------------------------------------------------------
  const buffers = new Buffers(s);
  const { idOf, baseOf } = buffers;
  const memories = new Memories(buffers);
  const sites = new Sites(s, hooks);
  const lockNames = new LockNames(buffers, s);
  const tests = testNames();

  // ---- races ----------------------------------------------------------------------------------------------
  const reportFile = settings.GOLDILOCKS_REPORT_DIR
    ? path.join(settings.GOLDILOCKS_REPORT_DIR, `${process.pid}.json`)
    : settings.GOLDILOCKS_REPORT;
  const program = process.argv[1] ?? '';
  /** `--suppressions` (`GOLDILOCKS_SUPPRESSIONS`), read at the first race. */
  const suppressions = () => liveSuppressions(settings.GOLDILOCKS_SUPPRESSIONS, printErr);
  const detector = LIVE_DETECTORS[state.settings.detector];
  /**
   * Writes this process's JSON report to the report file, if any, and, outside `goldilocks run` (which prints the
   * summary of all its processes), the SUMMARY line when there were races: once, by the thread that aborts
   * (`aborting`), else at exit.
   */
  const writeReport = (aborting = false): void => {
    shadow.flush();
    const summary =
      !settings.GOLDILOCKS_REPORT_DIR &&
      rawAtomics.load(s.ctl, CTL.raceCount) > 0 &&
      (aborting || rawAtomics.load(s.ctl, CTL.aborted) === 0);
    if (!reportFile && !summary) return;
    const j = liveReport(s, program, Number(process.hrtime.bigint() - started) / 1e6, suppressions());
    if (reportFile) writeJsonReport(reportFile, j);
    if (summary) printErr(textSummary(j, colors));
  };
  const abort = (): void => {
    rawAtomics.store(s.ctl, CTL.aborted, 1);
    writeReport(true);
    if (settings.GOLDILOCKS_REPORT_DIR)
      writeFileSync(path.join(settings.GOLDILOCKS_REPORT_DIR, 'aborted'), `${process.pid}\n`);
    if (isMainThread) process.exit(EXIT_ABORT);
    process.kill(process.pid, 'SIGUSR2');
  };
  const toStringTag = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(Int8Array.prototype),
    Symbol.toStringTag,
  )!.get!;
  /**
   * The racing bytes: the first, `off`, of an access of `size` bytes of buffer `id` through `what`; an element
   * access (`what` a view, `size` its element size) also names the element's index and first byte.
   */
  const memoryOf = (id: number, off: number, size: number, what: Accessed): MemoryLocation => {
    if (typeof what === 'string') return { buffer: id, byteOffset: off, size, elementType: what };
    const elementType = toStringTag.call(what) ?? 'DataView';
    const bpe = (what as Int8Array).BYTES_PER_ELEMENT;
    if (bpe !== size) return { buffer: id, byteOffset: off, size, elementType };
    const index = Math.floor((off - what.byteOffset) / bpe);
    return { buffer: id, byteOffset: off, size, elementType, index, start: what.byteOffset + index * bpe };
  };
  // ---- --history: the stack of every checked access, kept with its Info as its site -------------------------
  const history = settings.GOLDILOCKS_HISTORY === '1' && recorder === undefined;
  /** The string id of each `location\nstack` text met, by the stack's raw key (the stacks of a program's accesses are few). */
  const stacks = new Map<string, number>();
  const holder: { stack?: unknown } = {};
  /**
   * With `--history`, an access's site as its Info keeps it: the string `location\nstack` (the access's stack
   * below `fn`, in source coordinates), interned; a race's previous access is then named with its stack. A stack
   * capture per checked access (not per same-epoch access): opt-in, as ThreadSanitizer's `history_size`. The capture
   * is keyed by its call sites' generated positions; only a stack not met before is formatted (with the source maps,
   * which costs tens of microseconds).
   */
  const withStack = (site: number, fn: Callee): number => {
    const prepare = Error.prepareStackTrace;
    Error.prepareStackTrace = structured; // call sites, not text: no formatting, no source-map lookup per access
    Error.captureStackTrace(holder, fn);
    const frames = holder.stack as NodeJS.CallSite[];
    Error.prepareStackTrace = prepare;
    let key = String(site);
    for (const f of frames)
      key += `|${f.getScriptNameOrSourceURL()}:${f.getLineNumber()}:${f.getColumnNumber()}`;
    let g = stacks.get(key);
    if (g === undefined) {
      Error.captureStackTrace(holder, fn);
      const text = `${getString(s, site)}\n${String(holder.stack ?? '')
        .split('\n')
        .slice(1)
        .join('\n')}`;
      g = putString(s, text);
      stacks.set(key, g);
    }
    return g;
  };
  /** The previous access's location, and its stack when its site is {@link withStack}'s. */
  const previousAt = (site: number): { location: string; stack?: string } => {
    const text = getString(s, site);
    const nl = text.indexOf('\n');
    return nl < 0 ? { location: text } : { location: text.slice(0, nl), stack: text.slice(nl + 1) };
  };
  const race: Race = (c, id, off, size, flags, site, what, fn) => {
    const benign = benignReason(s, id, off);
    // reported, nothing to excuse or suppress, and its pair of locations reported already: counted, no record built
    if (
      !stopOnRace &&
      benign === undefined &&
      suppressions().length === 0 &&
      countRecordedRace(s, getString(s, site), previousAt(c.site).location)
    ) {
      shadow.counts[STAT.races]++;
      return false;
    }
    const at: { stack?: string } = {};
    Error.captureStackTrace(at, fn);
    if (!at.stack?.includes('\n')) Error.captureStackTrace(at, race); // fn was not on the stack (a reference's setter)
    const r: RaceRecord = {
      variable: `sab#${id}+${off}`,
      memory: memoryOf(id, off, size, what),
      allocation: buffers.allocationOf(id),
      current: {
        index: -1,
        thread: `T${t}`,
        access: flags & Access.WRITE ? 'write' : 'read',
        transactional: (flags & Access.XACT) !== 0,
        atomic: (flags & Access.ATOMIC) !== 0,
        location: getString(s, site),
        ...(flags & Access.XACT ? { committedAt: getString(s, site) } : {}),
        stack: (at.stack ?? '').split('\n').slice(1).join('\n'),
        ...(tests?.current() ? { test: tests.current() } : {}),
      },
      previous: {
        index: -1,
        thread: `T${c.owner}`,
        access: c.flags & Access.WRITE ? 'write' : 'read',
        transactional: (c.flags & Access.XACT) !== 0,
        atomic: (c.flags & Access.ATOMIC) !== 0,
        ...previousAt(c.site),
        ...(c.flags & Access.XACT ? { committedAt: previousAt(c.site).location } : {}),
      },
      // the vector-clock peer decides by epochs (its detail), without a lockset
      ...(detector === 'goldilocks' || detector === 'eraser'
        ? { lockset: c.lockset.map(Shadow.keyName), locksetNames: c.lockset.map(lockNames.nameOf) }
        : {}),
      detail: c.detail,
      precise,
    };
    const suppression = benign === undefined ? suppressionOf(suppressions(), r.current, r.previous) : -1;
    if (benign !== undefined || suppression >= 0) {
      // counted, not reported: the access goes on as under --on-race=report (docs/REPORT.md "Suppressions")
      recordRace(s, r, benign !== undefined ? { benign } : { suppression });
      return true;
    }
    shadow.counts[STAT.races]++;
    if (recordRace(s, r)) printErr(textRace(r, { detector, colors }));
    if (mode === 2) abort();
    if (stopOnRace) {
      const e = new DataRaceException(r);
      Error.captureStackTrace(e, fn);
      throw e;
    }
    return false;
  };
  /** Whether accesses of the main thread alone are skipped (`./alone.ts`): set once the run's mode is known, below. */
  let skipAlone = false;
  /** Whether the main thread is alone now and its accesses are skipped ({@link Context.alone}, not counted). */
  const aloneNow = (): boolean => skipAlone && mainAlone(s, t);
  /** {@link Context.alone}: counted when true. */
  const alone = (): boolean => {
    if (!aloneNow()) return false;
    shadow.counts[STAT.alone]++;
    return true;
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
   * Checks the bytes `mask` of word `w` of buffer `id` (its word table's first word at address `base`) for an access of `size`
   * bytes and reports a conflict at its first racing byte (see {@link Race}). With `--history` the access's Info
   * keeps its stack (see {@link withStack}).
   */
  const checkWord: CheckWord = (id, base, w, mask, flags, site, size, what, fn) => {
    if (alone()) return;
    counted(1);
    const kept = history ? withStack(site, fn) : site;
    const c = shadow.access(base + w, mask, flags, kept, stopOnRace);
    // an excused race: the access happens after all, so it is checked again and recorded
    if (c !== undefined && raceAt(c, id, w, mask, size, flags, site, what, fn) && stopOnRace)
      shadow.access(base + w, mask, flags, kept, false);
  };
  /**
   * Reports conflict `c` of an access of the bytes `mask` of word `w` at their first common byte.
   * @returns true when the race is excused (see {@link Race}).
   */
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
  ): boolean => {
    const common = mask & c.flags;
    return race(c, id, w * 8 + (31 - Math.clz32(common & -common)), size, flags, site, what, fn);
  };
  const checkRange: CheckRange = (buffer, off, size, flags, site, what, fn) => {
    // a private buffer, or the main thread alone: no other thread's access can race with this one
    if (size <= 0 || buffers.isPrivate(buffer) || alone()) return;
    const id = idOf(buffer);
    const base = baseOf(id);
    const end = off + size;
    const w0 = Math.floor(off / 8);
    const w1 = Math.ceil(end / 8); // exclusive
    /** The bytes of word w the access touches. */
    const maskOf = (w: number): number =>
      ((1 << Math.min(end - w * 8, 8)) - 1) & ~((1 << Math.max(off - w * 8, 0)) - 1);
    let raced = false; // only the first racing word of one access is reported
    const kept = history ? withStack(site, fn) : site;
    for (let w = w0; w < w1; ) {
      const done = shadow.accessRange(base + w, w1 - w, maskOf(w), maskOf(w1 - 1), flags, kept, stopOnRace);
      counted(done);
      w += done;
      const c = shadow.lastConflict;
      if (c !== undefined && !raced) {
        raced = true;
        if (raceAt(c, id, w - 1, maskOf(w - 1), size, flags, site, what, fn) && stopOnRace) {
          // an excused race: the rest of the access happens after all, as under --on-race=report
          for (let v = w - 1; v < w1; )
            v += shadow.accessRun(base + v, w1 - v, maskOf(v), maskOf(w1 - 1), flags, kept, false);
          return;
        }
      }
    }
  };

  // ---- element accesses, the list lock, the context of the other parts ------------------------------------
  // a recorded run records values and a jumbled run chooses them: element accesses under the word lock (no r/w)
  const memory = jumbleMemory(s, t, shadow, idOf, (id) => buffers.allocationOf(id).location);
  const elements = elementAccess({
    hooks,
    buffers,
    sites,
    counts: shadow.counts,
    recorder,
    everyAccess: recorder !== undefined || memory !== undefined,
    checkWord,
    checkRange,
    spans: history || settings.GOLDILOCKS_RANGES === '0' ? undefined : { shadow, counted, alone },
    aloneNow,
  });
  /** Runs `body` holding the list lock: a synchronization operation of this thread, which starts its next epoch. */
  const listLocked = <T>(body: () => T): T => {
    elements.nextEpoch();
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
    callerSite: sites.callerSite,
    checkRange,
    checkBytes: elements.checkBytes,
    listLocked,
    race,
    stopOnRace,
    alone,
  };
  const { sitedMethods, originals } = installPatches(ctx);
  const locked =
    recorder !== undefined || memory !== undefined
      ? new LockedElements({ hooks, sites, shadow, checkRange, stopOnRace, recorder, memory })
      : undefined;
  if (locked !== undefined) shadow.onAccess = locked.onAccess;
  buffers.privateUntilSent = locked === undefined && precise;
  skipAlone = t === 0 && locked === undefined && precise && settings.GOLDILOCKS_ALONE !== '0'; // a worker: never
  if (locked !== undefined && memory !== undefined) lockDataViews(locked);

  // ---- WebAssembly memories, messages, threads, the sync library, annotations ---------------------------------
  memories.install();
  patchSharedSlice(ctx, buffers);
  const messages = new Messages(ctx, buffers, memories);
  messages.install();
  observeEnvironment(buffers, messages);
  if (!isMainThread) awaitFork(ctx, buffers, messages);
  observeSync(ctx, lockNames);
  observeAnnotations(ctx);
  const sitedLater = observeStm(ctx);

  // ---- exit -----------------------------------------------------------------------------------------------
  if (isMainThread) {
    process.on('exit', () => {
      elements.tallyFilters();
      writeReport();
      if (memory !== undefined) writeJumbleStats(memory);
      recorder?.flush();
      recorder?.dump(process.argv.slice(1).join(' '));
    });
    if (mode === 2) process.on('SIGUSR2', () => process.exit(EXIT_ABORT));
  } else
    process.on('exit', () => {
      elements.tallyFilters();
      shadow.flush();
      memory?.flush();
      recorder?.flush();
    });
  return {
    ...elements.runtime,
    ...(locked !== undefined
      ? {
          ...locked.runtime,
          ...lockedFastPaths(elements.runtime, recorder, memory, hooks),
          span: undefined, // range checks record no values and jumble none: per-access checks
          covered: undefined,
        }
      : {}),
    allocated: (x, site) => buffers.allocated(x, sites.siteOf(site)),
    sitedMethods,
    sitedLater,
    originals,
    worker: withTests(workerHooks(ctx, buffers, memories, messages), tests),
  };
};

/** `hooks`, handing the test running now to each worker spawned (`./tests.ts`). */
function withTests(hooks: WorkerHooks, tests: ReturnType<typeof testNames>): WorkerHooks {
  if (tests === null) return hooks;
  return {
    beforeSpawn(options) {
      tests.beforeSpawn();
      hooks.beforeSpawn(options);
    },
    afterSpawn: (worker) => hooks.afterSpawn(worker),
    spawnFailed: () => hooks.spawnFailed(),
  };
}

/** The checker class of each `--detector`. */
const SHADOWS = { goldilocks: Shadow, fasttrack: FastTrackShadow, eraser: EraserShadow } as const;

export default factory;
