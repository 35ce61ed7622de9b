import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Detector } from './detectors/detector.js';
import { createDetector, type DetectorOptions } from './detectors/index.js';
import { Engine } from './engine/engine.js';
import type { SkipList } from './engine/skip.js';
import type { TraceError } from './model/errors.js';
import type { EventBatch } from './model/events.js';
import { Symbols } from './model/symbols.js';
import { RaceCollector } from './report/collector.js';
import {
  autoMayUseThreads,
  chooseReading,
  coreIsFree,
  type InputKind,
  isTextTrace,
  type PipelineMode,
  type Reading,
  readTracePipelined,
} from './trace/pipeline.js';
import { detectFormat, type Format, type ReadResult, readTrace, readTraceBuffer } from './trace/reader.js';
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

function setup(
  options: CheckOptions,
  file: string,
): { symbols: Symbols; engine: Engine; results: DetectorResult[] } {
  const symbols = new Symbols();
  const engine = new Engine(
    symbols,
    [],
    { file, lenient: options.lenient, onWarning: options.onWarning, skip: options.skip },
    (b: EventBatch, i: number) => formatEvent(symbols, b, i) ?? '',
  );
  const results = (options.detectors ?? ['goldilocks']).map((name) => {
    const races = new RaceCollector();
    const detector = createDetector(
      name,
      { symbols, locks: engine.locks, sink: races },
      options.detectorOptions,
    );
    engine.detectors.push(detector);
    return { detector, races };
  });
  return { symbols, engine, results };
}

/**
 * The main job: reads a trace file (`-` = stdin, gzip or not) and runs the detectors over it, streaming.
 * @throws TraceError for a malformed line or an infeasible event (unless `lenient`); Error for unreadable files.
 */
export async function checkFile(path: string, options: CheckOptions = {}): Promise<CheckResult> {
  const { symbols, engine, results } = setup(options, path === '-' ? '<stdin>' : path);
  const t0 = performance.now();
  const { size, kind } = sniff(path, options.format);
  const mode = options.pipeline ?? 'auto';
  const coreFree = mode === 'auto' && autoMayUseThreads(path, size, kind) && (await coreIsFree());
  const reading = chooseReading(mode, path, size, kind, coreFree);
  const readOptions = { format: options.format, onProgress: options.onProgress };
  const onBatch = (b: EventBatch) => engine.process(b);
  let input: ReadResult;
  if (reading === 'split' && isTextTrace(kind)) {
    const { readTraceSplit } = await import('./trace/split.js'); // loaded only to split
    input = await readTraceSplit(path, kind, symbols, onBatch, readOptions, options.split);
  } else {
    const read = reading === 'parser thread' ? readTracePipelined : readTrace;
    input = await read(path, symbols, onBatch, readOptions);
  }
  return { symbols, engine, results, input, timeMs: performance.now() - t0, reading };
}

/** As {@link checkFile}, for a trace given as text (tests, examples). */
export function checkText(text: string, options: CheckOptions = {}, name = '<text>'): CheckResult {
  const { symbols, engine, results } = setup(options, name);
  const t0 = performance.now();
  const buf = Buffer.from(text, 'utf8');
  // A batch no larger than the text's line count (+ room for a pending event): small texts stay cheap.
  let lines = 2;
  for (let i = buf.indexOf(10); i >= 0 && lines < 1 << 15; i = buf.indexOf(10, i + 1)) lines++;
  const input = readTraceBuffer(buf, name, symbols, (b) => engine.process(b), {
    format: options.format,
    batchSize: lines + 2,
  });
  return { symbols, engine, results, input, timeMs: performance.now() - t0, reading: 'one thread' };
}

/** The verdicts every precise detector must agree on: racy variables and the first racy event of each. */
export function verdicts(r: CheckResult, i = 0): Map<string, number> {
  const out = new Map<string, number>();
  for (const [x, ev] of r.results[i].races.firstRace) out.set(r.symbols.variables.name(x), ev);
  return out;
}
