/**
 * The log of a jumbled run (`GOLDILOCKS_JUMBLE_LOG=<dir>`, set by `goldilocks jumble` for each run; docs/JUMBLE.md
 * "Campaign"): what a witness shows (Flanagan & Freund, PLDI'10 §6: the erroneous run itself; ../shared/JUMBLE.md
 * §13.6). Files in `<dir>`:
 * - `<pid>.<thread>.reads`: one JSON object a line per jumbled read that had a choice (two or more distinct visible
 *   values), the first `GOLDILOCKS_JUMBLE_LOG_READS` (default {@link DEFAULT_LOG_READS}; 0: none) of each thread, in
 *   the thread's order: {@link LoggedRead}. Written at once (one `write` a read), so a run killed for hanging
 *   keeps the reads it made.
 * - `<pid>.stats`: written by each process's main thread at exit, the counters of the process
 *   (`./records.ts` JUMBLE_STATS, summed over its threads) with `heuristic`, `seed` and `cpuMs`, the CPU time (user +
 *   system, all threads) of the process in milliseconds.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Reads logged per thread by default. */
export const DEFAULT_LOG_READS = 256;

/** One logged read (a line of a `.reads` file). */
export interface LoggedRead {
  /** The reading thread (`T<n>`, as race reports name threads). */
  thread: string;
  /** Where it read (`file:line:column`). */
  site: string;
  /** The value returned and the newest value (the memory's), as JavaScript prints them (a BigInt with `n`). */
  value: string;
  newest: string;
  /** The write of the value returned: its thread and site; null for the value the location held when its buffer was made (at ⊥). */
  writer: { thread: string; site: string } | null;
  /** For a torn read (8-byte values only): the write of the other 4-byte half. */
  second?: { thread: string; site: string } | null;
  /** Distinct visible values (|D| ≥ 2). */
  choices: number;
  /** Whether the value returned is not the newest (a torn read counts as such). */
  stale: boolean;
}

/** The text of a value as a log shows it. */
export const valueText = (v: unknown): string => (typeof v === 'bigint' ? `${v}n` : String(v));

/** The read log of one thread. */
export class ReadLog {
  private fd = -1;
  private left: number;

  constructor(
    private readonly dir: string,
    private readonly t: number,
    limit: number,
  ) {
    this.left = limit;
  }

  /** Whether another read is logged. */
  get open(): boolean {
    return this.left > 0;
  }

  /** Appends `read` (while {@link open}). */
  add(read: LoggedRead): void {
    if (this.left <= 0) return;
    if (this.fd < 0) this.fd = openSync(path.join(this.dir, `${process.pid}.${this.t}.reads`), 'a');
    writeSync(this.fd, `${JSON.stringify(read)}\n`);
    if (--this.left === 0) {
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}

/** Main thread, at exit: the process's counters and CPU time to `<dir>/<pid>.stats`. */
export function writeStats(dir: string, stats: Record<string, unknown>): void {
  const { user, system } = process.cpuUsage();
  writeFileSync(
    path.join(dir, `${process.pid}.stats`),
    JSON.stringify({ ...stats, cpuMs: Math.round((user + system) / 1000) }),
  );
}
