/**
 * `goldilocks check FILE`'s parser thread started as the executable starts, before the check's bundle is loaded and the
 * command line parsed (issue 24 §3): the thread's start-up (a Node thread, its modules, its first batch in code not yet
 * optimized: about 0.1 s) then overlaps the loading of the bundle, commander, the check command and the detectors
 * instead of following it (about 20 ms of a 0.3 s check of the 2M-event realistic trace, against the start after the
 * bundle's loading); so does the sample of the processors that tells whether a core is free for it (`sampleCores` of
 * trace/reading.ts: 20 ms when this loading and the thread's start-up keep both cores busy, else 50 ms), which the check
 * would otherwise wait for once loaded.
 *
 * Only where `checkFile` with `--pipeline auto` would start one itself (a file of 8 MiB and less than 256 MiB, not in
 * the binary format: `chooseReading` given a free core), guessed from the arguments without parsing them: the command
 * `check`, the trace its last argument, and none of the options that change how it is read (`--pipeline`, `--format`,
 * `-f`) or mean no check (`--help`, `-h`). The check's bundle adopts what this starts (`./prestarted.ts`); `checkFile`
 * takes the thread if it reads that file by a parser thread (`ParserThread.take`); otherwise, or when the guess was
 * wrong, the thread is stopped: by `checkFile`, or at the end by `dropPrestarted`. A module of its own, outside the
 * bundle, which loads trace/reading.ts (no other module) and, to start a thread, trace/parser-start.ts: nothing more
 * for another command or a smaller file (`npm run bench:start`).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { StartedParser } from '../trace/parser-start.js';
import { BINARY_MAGIC, chooseReading, sampleCores } from '../trace/reading.js';

/** Arguments after which no thread is started. */
const NOT_READ_AS_IS = ['--pipeline', '--format', '-f', '--help', '-h'];

/** What {@link prestartCheck} started: the parser thread, and the sample of whether a core is free for it. */
export interface Prestarted {
  parser: StartedParser;
  coreSample: Promise<boolean>;
}

/**
 * Starts the parser thread of `goldilocks check`'s trace when `argv` (the arguments after the executable's) asks for one.
 * @returns what it started, or undefined (none asked for, or it could not start one: the check then starts its own, or
 *   says what is wrong with the file). Never rejects.
 */
export async function prestartCheck(argv: string[]): Promise<Prestarted | undefined> {
  if (argv[0] !== 'check' || argv.length < 2) return undefined;
  const trace = argv[argv.length - 1];
  if (trace.startsWith('-') || argv.some((a) => NOT_READ_AS_IS.some((o) => a === o || a.startsWith(`${o}=`))))
    return undefined;
  let size: number;
  const head = Buffer.alloc(BINARY_MAGIC.length);
  try {
    const st = statSync(trace);
    if (!st.isFile()) return undefined;
    size = st.size;
    const fd = openSync(trace, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // the check says what is wrong with the file
  }
  const kind = head.equals(BINARY_MAGIC) ? 'bin' : 'ext';
  if (chooseReading('auto', trace, size, kind, true) !== 'parser thread') return undefined;
  try {
    const { StartedParser } = await import('../trace/parser-start.js');
    return { parser: new StartedParser(trace, { progress: true }), coreSample: sampleCores() };
  } catch {
    return undefined; // the check starts its thread itself
  }
}
