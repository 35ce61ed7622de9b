import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { TraceError } from '../model/errors.js';
import { EventBatch } from '../model/events.js';
import type { Symbols } from '../model/symbols.js';
import { BinaryParser } from './binary.js';
import type { TraceParser } from './parser.js';
import { BINARY_MAGIC } from './reading.js';
import { RoadRunnerParser } from './roadrunner.js';
import { StdParser } from './std.js';

/**
 * Input formats: `std` (RAPID), `ext` (extended, a superset of std), `rr` (RoadRunner print), `bin` (binary),
 * `auto`.
 */
export type Format = 'std' | 'ext' | 'rr' | 'bin' | 'auto';

export interface ReadOptions {
  format?: Format;
  /** Events per batch (memory of the reader; default 32768). */
  batchSize?: number;
  /** Progress callback: bytes of the input file read so far and its size (0 for stdin). */
  onProgress?: (read: number, total: number) => void;
  /**
   * Gives the batch to fill after one is handed to `onBatch` (default: that one again, emptied), given the capacity of
   * `batchSize` (it may give a smaller one): for a caller that hands batches on to another thread (`BatchShipper` of
   * pipeline.ts).
   */
  nextBatch?: (capacity: number) => EventBatch;
  /**
   * Read only bytes `[start, end)` of the file, as an uncompressed text trace that starts and ends at line starts (a
   * segment of a split read, `split.ts`); line numbers then count from the range's first line.
   */
  range?: { start: number; end: number };
}

export interface ReadResult {
  format: Exclude<Format, 'auto'>;
  events: number;
  /** Lines (binary: records) read. */
  lines: number;
  gzip: boolean;
  skipped: Map<string, number>;
}

/**
 * Streams a trace file (`-` = stdin; gzip detected from its magic bytes) through a parser into batches,
 * calling `onBatch` for each full batch and the last one. Memory: one batch and one input chunk.
 * @throws TraceError on a malformed line; Error with code ENOENT etc. when the file cannot be read.
 */
export async function readTrace(
  path: string,
  symbols: Symbols,
  onBatch: (batch: EventBatch) => void,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const total = path === '-' ? 0 : statSync(path).size;
  const { range } = options;
  if (path !== '-') {
    const r = await readFileDirect(path, total, symbols, onBatch, options);
    if (r !== undefined) return r;
  }
  const raw: Readable =
    path === '-'
      ? process.stdin
      : range !== undefined && range.end <= range.start
        ? Readable.from([])
        : createReadStream(path, {
            highWaterMark: 1 << 20,
            start: range?.start,
            end: range && range.end - 1,
          });
  let rawBytes = 0;
  raw.on('data', (c: Buffer) => {
    rawBytes += c.length;
  });
  const it = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await it.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  const gzip = range === undefined && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  async function* rawChunks(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  let source: AsyncIterable<Buffer> = rawChunks();
  if (gzip) {
    const { createGunzip } = await import('node:zlib'); // loaded only for gzip'd input (issue 21 §4)
    const gunzip = createGunzip({ chunkSize: 1 << 20 });
    const feed = rawChunks();
    (async () => {
      try {
        for await (const c of feed) if (!gunzip.write(c)) await new Promise((r) => gunzip.once('drain', r));
        gunzip.end();
      } catch (e) {
        gunzip.destroy(e as Error);
      }
    })();
    source = gunzip;
  }

  const name = path === '-' ? '<stdin>' : path;
  const feeder = new TraceFeeder(symbols, name, onBatch, options);
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    const buf = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    carry = Buffer.from(feeder.feed(buf, false));
    options.onProgress?.(rawBytes, total);
  }
  return { ...feeder.end(carry), gzip };
}

/** Bytes read at a time by {@link readFileDirect}: 1 MiB, which stays in the processor's caches while it is parsed. */
const DIRECT_CHUNK = 1 << 20;

/**
 * {@link readTrace} of an uncompressed file: read by `readSync` into one buffer, reused — the rest of a chunk's last
 * line moved to its front — so that no chunk is allocated, copied into a concatenation or handed through a stream
 * (on a 2M-event trace these took about a tenth of `goldilocks check`'s time, issue 24 §3). A line longer than the
 * buffer doubles it. Yields to the event loop after each chunk only when `onProgress` is given (a progress bar
 * redraws on timers).
 * @returns undefined, having read nothing, for a gzip'd file (then read as a stream).
 */
async function readFileDirect(
  path: string,
  total: number,
  symbols: Symbols,
  onBatch: (batch: EventBatch) => void,
  options: ReadOptions,
): Promise<ReadResult | undefined> {
  const { range, onProgress } = options;
  const fd = openSync(path, 'r');
  try {
    const start = range?.start ?? 0;
    const end = range?.end ?? Number.POSITIVE_INFINITY;
    let buf = Buffer.allocUnsafe(DIRECT_CHUNK);
    let have = 0;
    let pos = start;
    let feeder: TraceFeeder | undefined;
    for (;;) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const n = pos < end ? readSync(fd, buf, have, Math.min(buf.length - have, end - pos), pos) : 0;
      if (feeder === undefined) {
        if (range === undefined && n >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return undefined;
        feeder = new TraceFeeder(symbols, path, onBatch, options);
      }
      if (n === 0) break;
      pos += n;
      have += n;
      const rest = feeder.feed(buf.subarray(0, have), false).length;
      buf.copyWithin(0, have - rest, have);
      have = rest;
      if (onProgress !== undefined) {
        onProgress(pos - start, total);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return { ...feeder.end(buf.subarray(0, have)), gzip: false };
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses a trace given as one buffer (e.g. a test's text), synchronously.
 * @throws TraceError on a malformed line.
 */
export function readTraceBuffer(
  buf: Buffer,
  name: string,
  symbols: Symbols,
  onBatch: (batch: EventBatch) => void,
  options: ReadOptions = {},
): ReadResult {
  return { ...new TraceFeeder(symbols, name, onBatch, options).end(buf), gzip: false };
}

/**
 * Format detection, parsing and batching of a stream of buffers: call {@link feed} with each chunk prefixed by
 * the rest the previous call returned, then {@link end} with the last rest. Records split across chunks are
 * parsed once whole.
 */
export class TraceFeeder {
  private batch: EventBatch;
  private parser: TraceParser | undefined;
  private format: Format;
  private index = 0;

  private readonly nextBatch: ((capacity: number) => EventBatch) | undefined;
  /** Events per batch (`ReadOptions.batchSize`; a `nextBatch` may give smaller ones). */
  private readonly capacity: number;

  constructor(
    private readonly symbols: Symbols,
    private readonly name: string,
    private readonly onBatch: (batch: EventBatch) => void,
    options: ReadOptions,
  ) {
    const capacity = options.batchSize ?? 1 << 15;
    this.capacity = capacity;
    this.nextBatch = options.nextBatch;
    this.batch = this.nextBatch?.(capacity) ?? new EventBatch(capacity);
    this.batch.reset(0);
    this.format = options.format ?? 'auto';
  }

  private flush(): void {
    const batch = this.batch;
    if (batch.length === 0) return;
    this.index += batch.length;
    this.onBatch(batch);
    if (this.nextBatch !== undefined) this.batch = this.nextBatch(this.capacity);
    this.batch.reset(this.index);
  }

  /**
   * Parses the whole lines (binary: records) of `buf`. @returns the unparsed rest (a partial last line).
   * @throws TraceError on malformed input.
   */
  feed(buf: Buffer, eof: boolean): Buffer {
    if (this.parser === undefined) {
      if (this.format === 'auto') {
        const f = detectFormat(buf, eof);
        if (f === undefined) return buf; // need more bytes
        this.format = f;
      }
      this.parser = makeParser(this.format, this.symbols, this.name);
    }
    let pos = 0;
    for (;;) {
      pos = this.parser.parse(buf, pos, buf.length, eof, this.batch);
      if (this.batch.length + 2 > this.batch.capacity) this.flush();
      else break;
    }
    return pos < buf.length ? buf.subarray(pos) : Buffer.alloc(0);
  }

  /** Parses the last bytes, flushes. @throws TraceError on malformed or truncated input. */
  end(rest: Buffer): Omit<ReadResult, 'gzip'> {
    const left = this.feed(rest, true);
    if (left.length > 0)
      throw new TraceError(this.name, 0, 0, left.toString('utf8', 0, 80), 'unparsed input at end of file');
    const parser =
      this.parser ?? makeParser(this.format === 'auto' ? 'ext' : this.format, this.symbols, this.name);
    parser.finish(this.batch);
    this.flush();
    return {
      format: parser.format as ReadResult['format'],
      events: this.index,
      lines: parser.lines,
      skipped: parser.skipped,
    };
  }
}

function makeParser(format: Format, symbols: Symbols, file: string): TraceParser {
  if (format === 'rr') return new RoadRunnerParser(symbols, file);
  if (format === 'bin') return new BinaryParser(symbols, file);
  return new StdParser(symbols, file, format === 'std');
}

/**
 * Detects the format: the magic bytes `GLKTRC\0` start the binary format; otherwise the first non-blank
 * line decides: `@` or `[` starts RoadRunner print output, any other line is the extended format (which reads
 * STD too). @returns undefined if more bytes are needed (no whole line yet, or a prefix of the magic bytes).
 */
export function detectFormat(buf: Buffer, eof: boolean): Exclude<Format, 'auto'> | undefined {
  const head = Math.min(buf.length, BINARY_MAGIC.length);
  if (buf.compare(BINARY_MAGIC, 0, head, 0, head) === 0) {
    if (head === BINARY_MAGIC.length) return 'bin';
    if (!eof) return undefined;
  }
  let pos = 0;
  for (;;) {
    let nl = buf.indexOf(0x0a, pos);
    if (nl < 0) {
      if (!eof) return undefined;
      nl = buf.length;
    }
    const line = buf.toString('utf8', pos, nl).trim();
    if (line.length > 0 && !line.startsWith('#')) {
      if (line.startsWith('@') || line.startsWith('[')) return 'rr';
      return 'ext';
    }
    if (nl >= buf.length) return 'ext';
    pos = nl + 1;
  }
}
