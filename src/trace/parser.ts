import type { EventBatch } from '../model/events.js';
import type { Symbols } from '../model/symbols.js';

/**
 * A streaming trace parser: turns complete lines of the input into events appended to a batch.
 * Implementations keep no per-event state beyond what a format needs (e.g. RoadRunner's pre/post lines).
 */
export interface TraceParser {
  readonly format: string;
  /**
   * Parses whole lines of `buf[pos, end)` into `batch` until the batch is full or no whole line is left.
   * A line is whole when a `\n` ends it, or at `eof`.
   * @returns the position after the last line consumed.
   * @throws TraceError on a malformed line.
   */
  parse(buf: Buffer, pos: number, end: number, eof: boolean, batch: EventBatch): number;
  /** Called once at end of input; may append pending events. */
  finish(batch: EventBatch): void;
  /** Lines that were neither events nor errors (blank lines, comments, a tool's log lines), by reason. */
  readonly skipped: Map<string, number>;
  /** Lines consumed so far (binary: records). */
  readonly lines: number;
}

export type ParserFactory = (symbols: Symbols, file: string) => TraceParser;
