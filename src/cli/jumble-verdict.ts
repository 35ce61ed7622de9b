/**
 * The judgement of a `goldilocks jumble` campaign's runs (issue 22 §3; Flanagan & Freund, PLDI'10 §1 "erroneous
 * execution", §6.1 Figure 9 and the QoS row; ../shared/JUMBLE.md §13.6): what counts as a failure, the verdict of a
 * group, and its Figure 10 statistics. Pure: the runs are `./jumble-campaign.ts`'s.
 *
 * **Failure kinds**, tested in this order (the first that applies):
 * - `hang`: the run was killed at the time-out (non-termination: the paper's lufact, moldyn, jbb `mode`);
 * - `exception` / `exit`: its exit code (or signal) differs from the reference (the most common exit code of the
 *   `none` runs): `exception` when its stderr shows an uncaught exception (in any thread), else `exit`;
 * - `oracle`: the `--oracle` script, given the run's output and exit code, exited non-zero;
 * - `output`: its stdout differs from the reference runs' (`none` and `sc`) while those all agree;
 * - `qos` (jumbled runs only): no failure, but the run cost more than {@link Qos.factor} × the median of the `sc`
 *   runs, and more than {@link Qos.marginMs} beyond it (the paper's tsp: "up to 2× slower"). The cost is the CPU
 *   time of the run's processes (user + system, all threads, measured by the runtime at exit: less disturbed by a
 *   loaded machine than wall time) when every `sc` run and this one have it, else wall time.
 *
 * **Verdict** per group: `inconclusive` when a control (`none`, `sc`) failed; `destructive` when an adversarial
 * configuration (`oldest`, `obd`, `random`, `rbd`) failed other than by QoS; `qos` when they failed by QoS only;
 * `benign` when the jumbled runs' reads had a choice (two or more distinct visible values) and nothing failed;
 * `not-exercised` when no read ever had one. The failure rates count every failing run, QoS ones included (the
 * paper's Figure 9 gives tsp 100%).
 */
import { JUMBLE_HEURISTICS } from '../live/options.js';

/** The configurations of a campaign, in the order of the paper's Figure 9. */
export const CONFIGURATIONS = ['none', ...JUMBLE_HEURISTICS] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

export type FailureKind = 'hang' | 'exception' | 'exit' | 'oracle' | 'output' | 'qos';

/** What one run of a group did. */
export interface RunResult {
  configuration: Configuration;
  seed: number;
  /** Exit code, or null when a signal ended it (then `signal`). */
  code: number | null;
  signal?: string | null;
  stdout: string;
  /** The first line of an uncaught exception on stderr, if any. */
  uncaught?: string;
  timedOut: boolean;
  wallMs: number;
  /** A jumbled run's counters (`../live/jumble/records.ts` JUMBLE_STATS, summed over its processes) and `cpuMs`. */
  stats?: Record<string, number>;
  /** The `--oracle` script's verdict: its exit code and first line of output. */
  oracle?: { code: number | null; message: string };
}

/** A failure: its kind and what it said. */
export interface Failure {
  kind: FailureKind;
  message: string;
}

/** The QoS threshold (see the file header). */
export interface Qos {
  factor: number;
  marginMs: number;
}

/** Default QoS threshold: 3 × the `sc` runs' median cost and at least 1000 ms beyond it. */
export const DEFAULT_QOS: Qos = { factor: 3, marginMs: 1000 };

/** What runs are compared with, from the controls (`none`, `sc`). */
export interface Reference {
  /** The most common exit code of the `none` runs that ended in time (0 when none did). */
  code: number | null;
  /** The stdout of every reference run that ended in time, when they all agree. */
  output?: string;
  /** The median cost of the `sc` runs and whether it is CPU time (else wall time); undefined without sc runs. */
  cost?: { ms: number; cpu: boolean };
  qos: Qos;
  timeoutMs: number;
}

/** The first line of an uncaught exception in `stderr`, or undefined. */
export const uncaughtIn = (stderr: string): string | undefined =>
  /^(\w*(Error|Exception)\b[^\n]*)$/m.exec(stderr)?.[1] ?? (/Uncaught [^\n]*/.exec(stderr)?.[0] || undefined);

function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The reference of a group from its `none` and `sc` runs. */
export function referenceOf(none: RunResult[], sc: RunResult[], qos: Qos, timeoutMs: number): Reference {
  const codes = new Map<number | null, number>();
  for (const r of none) if (!r.timedOut) codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
  const code = [...codes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const ended = [...none, ...sc].filter((r) => !r.timedOut);
  const output = ended.every((r) => r.stdout === ended[0].stdout) ? ended[0]?.stdout : undefined;
  const timed = sc.filter((r) => !r.timedOut);
  const cpu = timed.length > 0 && timed.every((r) => r.stats?.cpuMs !== undefined);
  const ms = median(timed.map((r) => (cpu ? r.stats!.cpuMs : r.wallMs)));
  return { code, output, cost: ms === undefined ? undefined : { ms, cpu }, qos, timeoutMs };
}

/** How run `r` failed against `ref` (see the file header), or undefined. */
export function failureOf(r: RunResult, ref: Reference): Failure | undefined {
  if (r.timedOut) return { kind: 'hang', message: `no exit after ${ref.timeoutMs} ms` };
  if (r.code !== ref.code)
    return r.uncaught !== undefined
      ? { kind: 'exception', message: r.uncaught }
      : { kind: 'exit', message: r.code === null ? `signal ${r.signal}` : `exit code ${r.code}` };
  if (r.oracle !== undefined && r.oracle.code !== 0)
    return { kind: 'oracle', message: r.oracle.message || `the oracle exited with ${r.oracle.code}` };
  if (ref.output !== undefined && r.stdout !== ref.output)
    return { kind: 'output', message: `stdout differs from the reference runs' (${firstLine(r.stdout)})` };
  const cost = ref.cost;
  if (r.configuration !== 'none' && cost !== undefined) {
    const ms = cost.cpu ? r.stats?.cpuMs : r.wallMs;
    if (ms !== undefined && ms > ref.qos.factor * cost.ms && ms - cost.ms > ref.qos.marginMs)
      return {
        kind: 'qos',
        message: `${cost.cpu ? 'CPU' : 'wall'} time ${Math.round(ms)} ms, ${(ms / cost.ms).toFixed(1)}× the sc runs' median ${Math.round(cost.ms)} ms`,
      };
  }
  return undefined;
}

const firstLine = (text: string): string => {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
};

export type Verdict = 'destructive' | 'qos' | 'benign' | 'not-exercised' | 'inconclusive';

/** The verdict of a group from its failure counts per configuration and its reads with a choice. */
export function verdictOf(
  failures: Record<Configuration, { all: number; qos: number }>,
  exercised: number,
): Verdict {
  if (failures.none.all > 0 || failures.sc.all > 0) return 'inconclusive';
  const adversarial = JUMBLE_HEURISTICS.filter((h) => h !== 'sc');
  if (adversarial.some((h) => failures[h].all > failures[h].qos)) return 'destructive';
  if (adversarial.some((h) => failures[h].qos > 0)) return 'qos';
  return exercised > 0 ? 'benign' : 'not-exercised';
}

/**
 * Figure 10 of the paper for a group: the `sc` configuration's slowdown against plain node (median wall times;
 * null without both), and over its `sc` runs the mean number of write buffers made (instances), of writes, of
 * [REMOVE OLDEST] removals and of those that dropped an entry still visible, and the longest buffer with and without
 * compression ([GC1], [GC2]; without: the most writes to one location plus its initial entry `0@⊥`, as a buffer with
 * compression counts it too).
 */
export interface Figure10 {
  slowdown: number | null;
  instances: number;
  writes: number;
  maxLengthUncompressed: number;
  maxLength: number;
  removeOldest: number;
  droppedVisible: number;
}

/** Figure 10 of a group from its `none` and `sc` runs. */
export function figure10Of(none: RunResult[], sc: RunResult[]): Figure10 {
  const plain = median(none.filter((r) => !r.timedOut).map((r) => r.wallMs));
  const jumbled = median(sc.filter((r) => !r.timedOut).map((r) => r.wallMs));
  const stats = sc.map((r) => r.stats ?? {});
  const mean = (k: string) =>
    stats.length === 0 ? 0 : Math.round(stats.reduce((s, x) => s + (x[k] ?? 0), 0) / stats.length);
  const max = (k: string) => Math.max(0, ...stats.map((x) => x[k] ?? 0));
  return {
    slowdown: plain && jumbled ? Math.round((jumbled / plain) * 100) / 100 : null,
    instances: mean('buffers'),
    writes: mean('writes'),
    maxLengthUncompressed: stats.some((x) => (x.buffers ?? 0) > 0) ? max('maxWrites') + 1 : 0,
    maxLength: max('maxLength'),
    removeOldest: mean('removeOldest'),
    droppedVisible: mean('droppedVisible'),
  };
}
