/**
 * How a trace is read — in the calling thread, by one parser thread (`./pipeline.ts`) or split between parser
 * threads (`./split.ts`) — decided from the input's size and first bytes, without loading the readers' threads:
 * `goldilocks check` of a small file loads neither node:worker_threads nor node:os (issue 21 §4).
 */
import type { CpuInfo } from 'node:os';

/**
 * How a trace is read: `off` in the calling thread; `on` by one parser thread (`./pipeline.ts`); `split` by several
 * (`split.ts`: text files in the extended or STD format only, other input as with `on`); `auto`: see
 * {@link chooseReading}.
 */
export type PipelineMode = 'auto' | 'on' | 'split' | 'off';

/**
 * The first 7 bytes of a binary trace (`./binary.ts`); the 8th is its version (`BINARY_VERSION`). Here, with the other
 * facts told from an input's first bytes, so that `../cli/prestart.ts` tells them without loading the readers.
 */
export const BINARY_MAGIC: Buffer = Buffer.from('GLKTRC\0', 'latin1');

/** How a trace was read: in the calling thread, by one parser thread, or split between parser threads. */
export type Reading = 'one thread' | 'parser thread' | 'split';

/** What the first bytes of an input say it is: its format, or gzip'd, or `unknown` (stdin, unreadable, no whole line). */
export type InputKind = 'ext' | 'std' | 'rr' | 'bin' | 'gzip' | 'unknown';

/**
 * Input size (bytes of the file, compressed or not) from which `auto` reads in parser threads. A worker's
 * start-up costs 30–50 ms; a text trace is parsed at about 50 MiB/s, so below a few MiB the overlap gains less
 * than that.
 */
export const PIPELINE_MIN_BYTES = 8 << 20;

/**
 * Input size from which `auto` splits a text trace between parser threads rather than giving it to one. Measured on
 * this project's 2-core machine (docs/BENCHMARKS.md, "Offline throughput"): split was faster on the 0.8–1.5 GB traces
 * (lusearch-t2 1.5–1.7×, generated 50M 1.1–1.2× one parser thread) and no faster on the 98 MB generated 5M one
 * (0.72–1.03× one parser thread in seven runs), where the calling thread, which also maps the parser threads' ids,
 * shares the two cores with two parser threads.
 */
export const SPLIT_MIN_BYTES = 256 << 20;

/**
 * How to read `path` (of `size` bytes; `-` = stdin; `kind` from its first bytes). `auto`: in parser threads for
 * files of at least {@link PIPELINE_MIN_BYTES} other than binary ones, when `coreFree` ({@link coreIsFree}) — split
 * if the file is text in the extended or STD format of at least {@link SPLIT_MIN_BYTES}, by one parser thread
 * otherwise (smaller, gzip'd, RoadRunner's format). On a machine whose cores are all busy the threads compete for
 * them, and pipelining was measured slower than reading in one thread (0.7–0.8× on this project's 2-core machine);
 * the binary format is parsed so cheaply that handing its batches over costs more than it saves
 * (docs/BENCHMARKS.md). Never for stdin (of unknown size, not seekable).
 * @param coreFree whether a core is free for parser threads besides the calling thread's (only `auto` asks; see
 *   {@link autoMayUseThreads} for when it matters).
 */
export function chooseReading(
  mode: PipelineMode,
  path: string,
  size: number,
  kind: InputKind,
  coreFree: boolean,
): Reading {
  const splittable = path !== '-' && isTextTrace(kind);
  if (mode === 'off') return 'one thread';
  if (mode === 'on') return 'parser thread';
  if (mode === 'split') return splittable ? 'split' : 'parser thread';
  if (!autoMayUseThreads(path, size, kind) || !coreFree) return 'one thread';
  return splittable && size >= SPLIT_MIN_BYTES ? 'split' : 'parser thread';
}

/** Whether input of this kind is a text trace in the extended or STD format: what split reading can cut. */
export function isTextTrace(kind: InputKind): kind is 'ext' | 'std' {
  return kind === 'ext' || kind === 'std';
}

/** Whether `auto` reads this input in parser threads when a core is free (so whether to find out: {@link coreIsFree}). */
export function autoMayUseThreads(path: string, size: number, kind: InputKind): boolean {
  return path !== '-' && kind !== 'bin' && size >= PIPELINE_MIN_BYTES;
}

/** Idle cores (of the whole machine) from which {@link coreIsFree} says a core is free besides the caller's. */
export const FREE_IDLE_CORES = 1.5;

/**
 * How long {@link coreIsFree} samples the processors' times (ms): Linux counts them in 10 ms ticks, so on two cores
 * 50 ms tell idle from one busy core (10 ticks against 5) while adding little to a check of a file of 8 MiB or more.
 */
export const CORE_SAMPLE_MS = 50;

/**
 * How long, at least, {@link sampleCores} measures this process's own use of the processors before it may conclude
 * from it alone (ms): `process.cpuUsage()` counts each thread's run time exactly (not in ticks), so 20 ms of this
 * process running {@link FREE_IDLE_CORES} cores' worth is evidence enough that a second core serves it.
 */
export const OWN_SAMPLE_MS = 20;

/**
 * Whether a core is free for parser threads besides the calling thread's: at least two cores, and over a sample of
 * {@link CORE_SAMPLE_MS} ms (the calling thread waiting meanwhile) the machine's processors were idle, or busy with
 * this process (a parser thread started early, `checkFile`), {@link FREE_IDLE_CORES} cores' worth or more
 * ({@link idleCores} of two `os.cpus()` samples, plus `process.cpuUsage()` over the same time): what other processes
 * leave, not a load average, which lags by a minute (after a benchmark it still counts the runs just ended). The
 * sample ends after {@link OWN_SAMPLE_MS} ms if this process alone ran that much by then (its threads on two cores at
 * once: others then had at most the rest, as the full sample would find). Without processor times (`os.cpus()` empty
 * or not advancing) it says no. The sample {@link startCoreSample} began, if any, is taken instead of a new one (then
 * its time has passed, or part of it, while the caller did other work).
 */
export function coreIsFree(): Promise<boolean> {
  const sample = early ?? sampleCores();
  early = undefined;
  return sample;
}

/** A sample of {@link coreIsFree} begun by {@link startCoreSample} and not yet taken. */
let early: Promise<boolean> | undefined;

/**
 * Gives {@link coreIsFree}'s next call `sample`, a sample begun by {@link sampleCores} (by default now): `goldilocks
 * check` of a file read by a parser thread begins it as the executable starts (cli/prestart.ts, in its own copy of
 * this module, before the check's bundle is loaded), so that its {@link CORE_SAMPLE_MS} ms pass while the command line,
 * the check and the detectors load instead of after (issue 24 §3). The thread started then, and the loading, are this
 * process's: counted as its own use, as {@link coreIsFree} counts them. A sample given before and not yet taken stays.
 */
export function startCoreSample(sample: Promise<boolean> = sampleCores()): void {
  early ??= sample;
}

/** What {@link sampleCores} reads: the processors' times, this process's own, a clock (µs), and a timer. */
export interface CoreProbe {
  parallelism(): number;
  cpus(): CpuInfo[];
  cpuUsage(since?: NodeJS.CpuUsage): NodeJS.CpuUsage;
  nowUs(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * The machine's: node:os taken synchronously (`process.getBuiltinModule`), so that a sample begins at the call, not
 * once an `import()` resolves (which waits for the caller's synchronous work: ~15 ms of the check's bundle loading,
 * issue 24 §3); loaded only for a file of 8 MiB or more.
 */
function systemProbe(): CoreProbe {
  const { availableParallelism, cpus } = process.getBuiltinModule('node:os');
  return {
    parallelism: availableParallelism,
    cpus,
    cpuUsage: (since) => process.cpuUsage(since),
    nowUs: () => Number(process.hrtime.bigint()) / 1e3,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

/**
 * One sample of {@link coreIsFree}, begun now (the first readings taken before it returns), over the next
 * {@link OWN_SAMPLE_MS} to {@link CORE_SAMPLE_MS} ms. Never rejects.
 * @param probe what it reads (tests give their own; by default the machine's).
 */
export async function sampleCores(probe: CoreProbe = systemProbe()): Promise<boolean> {
  if (probe.parallelism() < 2) return false;
  const before = probe.cpus();
  const ours = probe.cpuUsage();
  const start = probe.nowUs();
  /** This process's processor time since `start`, in cores (µs of run time per µs), and that time (µs). */
  const own = (): { cores: number; us: number } => {
    const used = probe.cpuUsage(ours);
    const us = probe.nowUs() - start;
    return { cores: us > 0 ? (used.user + used.system) / us : 0, us };
  };
  await probe.sleep(OWN_SAMPLE_MS);
  const early = own();
  if (early.cores >= FREE_IDLE_CORES) return true;
  await probe.sleep(Math.max(0, CORE_SAMPLE_MS - early.us / 1e3));
  const idle = idleCores(before, probe.cpus());
  return idle > 0 && idle + own().cores >= FREE_IDLE_CORES;
}

/**
 * Idle cores between two `os.cpus()` samples: the idle share of all processors' time (user, nice, sys, idle, irq)
 * between them, times the number of processors; 0 when the samples differ in length or no time passed.
 */
export function idleCores(before: CpuInfo[], after: CpuInfo[]): number {
  if (before.length !== after.length || before.length === 0) return 0;
  let idle = 0;
  let total = 0;
  for (let i = 0; i < after.length; i++) {
    const a = before[i].times;
    const b = after[i].times;
    idle += b.idle - a.idle;
    total += b.user - a.user + (b.nice - a.nice) + (b.sys - a.sys) + (b.idle - a.idle) + (b.irq - a.irq);
  }
  return total > 0 ? (idle / total) * after.length : 0;
}
