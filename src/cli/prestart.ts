/**
 * `goldilocks check FILE`'s parser thread started as the executable starts, before the command line is parsed (issue
 * 24 §3): the thread's start-up (a Node thread, its modules, its first batch in code not yet optimized: about 0.1 s)
 * then overlaps the loading of commander, the check command and the detectors instead of following it; so does the
 * 50 ms sample of the processors that tells whether a core is free for it (`startCoreSample` of trace/reading.ts),
 * which the check would otherwise wait for once loaded.
 *
 * Only where `checkFile` with `--pipeline auto` would start one itself (a file of 8 MiB and less than 256 MiB, not in
 * the binary format: `chooseReading` given a free core), guessed from the arguments without parsing them: the command
 * `check`, the trace its last argument, and none of the options that change how it is read (`--pipeline`, `--format`,
 * `-f`) or mean no check (`--help`, `-h`). `checkFile` takes the thread if it reads that file by a parser thread
 * (`ParserThread.take`); otherwise, or when the guess was wrong, the thread is stopped: by `checkFile`, or at the
 * end by {@link dropPrestarted}. Loads nothing for another command or a smaller file (`npm run bench:start`).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** Arguments after which no thread is started. */
const NOT_READ_AS_IS = ['--pipeline', '--format', '-f', '--help', '-h'];

/** The parser thread's module once {@link prestartCheck} has decided (and started the thread, or not). */
let started: Promise<typeof import('../trace/pipeline.js') | undefined> | undefined;

/**
 * Starts the parser thread of `goldilocks check`'s trace when `argv` (the arguments after the executable's) asks for one.
 * @returns a promise that resolves once the thread is started or it is decided not to start one (never rejects).
 */
export async function prestartCheck(argv: string[]): Promise<void> {
  if (argv[0] !== 'check' || argv.length < 2) return;
  const trace = argv[argv.length - 1];
  if (trace.startsWith('-') || argv.some((a) => NOT_READ_AS_IS.some((o) => a === o || a.startsWith(`${o}=`))))
    return;
  let size: number;
  const head = Buffer.alloc(8);
  try {
    const st = statSync(trace);
    if (!st.isFile()) return;
    size = st.size;
    const fd = openSync(trace, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // the check says what is wrong with the file
  }
  started = (async () => {
    const reading = await import('../trace/reading.js'); // loaded by every check
    if (!reading.autoMayUseThreads(trace, size, 'ext')) return undefined; // small: neither threads nor their modules
    const [binary, pipeline] = await Promise.all([
      import('../trace/binary.js'),
      import('../trace/pipeline.js'),
    ]);
    const kind = head.subarray(0, binary.BINARY_MAGIC.length).equals(binary.BINARY_MAGIC) ? 'bin' : 'ext';
    if (reading.chooseReading('auto', trace, size, kind, true) === 'parser thread') {
      pipeline.ParserThread.prestart(trace);
      reading.startCoreSample(); // whether a core is free for it, found out while the check loads
    }
    return pipeline;
  })().catch(() => undefined); // then the check starts its thread itself
  await started;
}

/**
 * Resolves once {@link prestartCheck} has started the thread or decided not to (its modules load asynchronously): what
 * `check` awaits before it reads, so that it finds the thread rather than starting a second one.
 */
export async function prestarted(): Promise<void> {
  await started;
}

/** Stops the thread {@link prestartCheck} started if `check` did not take it. */
export function dropPrestarted(): void {
  void started?.then((pipeline) => pipeline?.ParserThread.drop());
}
