/**
 * The check of a trace file (`goldilocks check`, the library's `checkFile`): reads it — in this thread, by a parser
 * thread or split between parser threads (`./trace/reading.ts`) — and runs the detectors over it. Loads only what the
 * input needs: the detectors named (`./detectors/load.ts`), the parser threads' machinery for a file of 8 MiB or
 * more (issue 21 §4). A trace given as text: `./check-text.ts`.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Detector, Race } from './detectors/detector.js';
import { type CreateDetector, type DetectorOptions, loadDetectors } from './detectors/load.js';
import { Engine } from './engine/engine.js';
import type { SkipList } from './engine/skip.js';
import type { TraceError } from './model/errors.js';
import type { EventBatch } from './model/events.js';
import { Symbols } from './model/symbols.js';
import { RaceCollector } from './report/collector.js';
import { raceOf } from './report/race.js';
import { type Suppression, suppressionOf } from './report/suppressions.js';
import { detectFormat, type Format, type ReadResult, readTrace } from './trace/reader.js';
import {
  autoMayUseThreads,
  chooseReading,
  coreIsFree,
  type InputKind,
  isTextTrace,
  type PipelineMode,
  type Reading,
} from './trace/reading.js';
import type { SplitOptions } from './trace/split.js';
import { formatEvent } from './trace/writer.js';

export interface CheckOptions {
  /** Detector names; each sees every event (default ['goldilocks']). */
  detectors?: string[];
  format?: Format;
  lenient?: boolean;
  /** Accesses that need no check (§5.2, `--skip`). */
  skip?: SkipList;
  detectorOptions?: DetectorOptions;
  onProgress?: (read: number, total: number) => void;
  onWarning?: (e: TraceError) => void;
  /**
   * Parse in worker threads while the detectors run (trace/pipeline.ts, trace/split.ts): `auto` (default) for
   * files of 8 MiB and more when a core is free (`chooseReading`), `on` (one parser thread), `split` (several),
   * `off`. Results are the same either way.
   */
  pipeline?: PipelineMode;
  /** Parser threads and segment size of split reading (trace/split.ts; defaults there). */
  split?: SplitOptions;
  /** Races to count but not report (`--suppressions`, ./report/suppressions.ts). */
  suppressions?: Suppression[];
  /**
   * Tools that see every event after the detectors and report nothing (`--html`'s synchronization history,
   * ./report/html/history.ts).
   */
  observers?: Detector[];
}

/** One detector's verdicts on a trace. */
export interface DetectorResult {
  detector: Detector;
  races: RaceCollector;
}

export interface CheckResult {
  symbols: Symbols;
  engine: Engine;
  results: DetectorResult[];
  input: ReadResult;
  /** Wall-clock milliseconds for parse + check. */
  timeMs: number;
  /** How the trace was read (`CheckOptions.pipeline`). */
  reading: Reading;
}

/**
 * Milliseconds since `start`, a `process.hrtime.bigint()` (the global `performance` would load node:perf_hooks
 * and eight more built-in modules at the first use: issue 21 §4).
 */
export const msSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** Bytes of a file's start that {@link sniff} reads: enough for a first line of a text trace. */
const SNIFF_BYTES = 1 << 16;

/**
 * Size of the file at `path` and what its first bytes say it is (`format` when given); 0 and `unknown` for stdin or
 * a file that cannot be read (reading it then reports why).
 */
export function sniff(path: string, format: Format | undefined): { size: number; kind: InputKind } {
  if (path === '-') return { size: 0, kind: 'unknown' };
  try {
    const size = statSync(path).size;
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    const fd = openSync(path, 'r');
    let n: number;
    try {
      n = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
    if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { size, kind: 'gzip' };
    if (format !== undefined && format !== 'auto') return { size, kind: format };
    return { size, kind: detectFormat(head.subarray(0, n), n === size) ?? 'unknown' };
  } catch {
    return { size: 0, kind: 'unknown' };
  }
}

/**
 * The symbols, the engine and the detectors (made by `create`, in the order of `options.detectors`) of a check of
 * `file`.
 */
export function newCheck(
  options: CheckOptions,
  file: string,
  create: CreateDetector,
): { symbols: Symbols; engine: Engine; results: DetectorResult[] } {
  const symbols = new Symbols();
  const engine = new Engine(
    symbols,
    [],
    { file, lenient: options.lenient, onWarning: options.onWarning, skip: options.skip },
    (b: EventBatch, i: number) => formatEvent(symbols, b, i) ?? '',
  );
  const suppressions = options.suppressions ?? [];
  const suppressed =
    suppressions.length === 0
      ? undefined
      : (r: Race) => {
          const named = raceOf(symbols, r, true);
          return suppressionOf(suppressions, named.current, named.previous);
        };
  const results = (options.detectors ?? ['goldilocks']).map((name) => {
    const races = new RaceCollector(suppressed);
    const detector = create(name, { symbols, locks: engine.locks, sink: races }, options.detectorOptions);
    engine.detectors.push(detector);
    return { detector, races };
  });
  engine.detectors.push(...(options.observers ?? []));
  return { symbols, engine, results };
}

/**
 * The main job: reads a trace file (`-` = stdin, gzip or not) and runs the detectors over it, streaming.
 * @throws TraceError for a malformed line or an infeasible event (unless `lenient`); Error for unreadable files.
 */
export async function checkFile(path: string, options: CheckOptions = {}): Promise<CheckResult> {
  const t0 = process.hrtime.bigint();
  const { size, kind } = sniff(path, options.format);
  const mode = options.pipeline ?? 'auto';
  const readOptions = { format: options.format, onProgress: options.onProgress };
  const mayUseThreads = mode === 'auto' && autoMayUseThreads(path, size, kind);
  // Where `auto` reads by one parser thread if a core is free, the thread starts first: its start-up overlaps the
  // loading of the detectors and the sample that finds out, and it is stopped if no core is free (issue 24 §3).
  // The CLI may have started it already, before it parsed its arguments (cli/prestart.ts).
  const early =
    mayUseThreads && chooseReading(mode, path, size, kind, true) === 'parser thread'
      ? await parserThread(path, options)
      : undefined;
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(options, path, mayUseThreads);
  } catch (e) {
    early?.stop();
    throw e;
  }
  const { symbols, engine, results, coreFree } = prepared;
  const reading = chooseReading(mode, path, size, kind, coreFree);
  if (reading !== 'parser thread') early?.stop();
  const onBatch = (b: EventBatch) => engine.process(b);
  let input: ReadResult;
  if (reading === 'split' && isTextTrace(kind)) {
    const { readTraceSplit } = await import('./trace/split.js'); // loaded only to split
    input = await readTraceSplit(path, kind, symbols, onBatch, readOptions, options.split);
  } else if (reading === 'parser thread')
    input = await (early ?? (await parserThread(path, options))).read(symbols, onBatch, options.onProgress);
  else input = await readTrace(path, symbols, onBatch, readOptions);
  return { symbols, engine, results, input, timeMs: msSince(t0), reading };
}

/** A parser thread reading `path` as `options` ask: the one the CLI started (`ParserThread.take`), or a new one. */
async function parserThread(path: string, options: CheckOptions) {
  const { ParserThread } = await import('./trace/pipeline.js'); // loaded only to read in a parser thread
  const { format, onProgress } = options;
  return (
    ParserThread.take(path, format) ?? new ParserThread(path, { format, progress: onProgress !== undefined })
  );
}

/** {@link checkFile}'s detectors ({@link newCheck}) and, if `sample`, whether a core is free ({@link coreIsFree}). */
async function prepare(options: CheckOptions, path: string, sample: boolean) {
  const create = await loadDetectors(options.detectors ?? ['goldilocks']);
  const check = newCheck(options, path === '-' ? '<stdin>' : path, create);
  return { ...check, coreFree: sample && (await coreIsFree()) };
}

/** The verdicts every precise detector must agree on: racy variables and the first racy event of each. */
export function verdicts(r: CheckResult, i = 0): Map<string, number> {
  const out = new Map<string, number>();
  for (const [x, ev] of r.results[i].races.firstRace) out.set(r.symbols.variables.name(x), ev);
  return out;
}
