/**
 * The text of a `goldilocks jumble` campaign's results (issue 22 §3; docs/JUMBLE.md "Campaign"): the paper's Figure 9
 * (failure rate per configuration and group; Flanagan & Freund, PLDI'10 §6.1), each witness with its jumbled reads,
 * and Figure 10 (the `sc` configuration's cost and the write buffers' statistics, §6.2).
 */
import type { LoggedRead } from '../live/jumble/log.js';
import type { Group } from './jumble-groups.js';
import {
  CONFIGURATIONS,
  type Configuration,
  type Failure,
  type Figure10,
  type Verdict,
} from './jumble-verdict.js';

/** A failing run shown as the evidence of a group's verdict. */
export interface Witness extends Failure {
  configuration: Configuration;
  seed: number;
  /** The command that reruns it (`goldilocks run --jumble …`). */
  command: string;
  /** The jumbled reads of the run that had a choice, in each thread's order (at most the log's limit per thread). */
  reads: LoggedRead[];
}

/** One group of the JSON output (`goldilocks-jumble/1`, docs/REPORT.md). */
export interface GroupResult extends Group {
  /** The first of {@link Group.variables} (kept for readers of the first version of the schema). */
  variable: string;
  /** The group's name in the tables. */
  name: string;
  verdict: Verdict;
  /** Per configuration, the fraction of failing runs (0..1). */
  rates: Record<Configuration, number>;
  /** Per failure kind, the failing runs of all configurations. */
  failures: Record<string, number>;
  /** Reads of the jumbled runs (`sc` included) that had a choice (two or more distinct visible values). */
  exercised: number;
  figure10: Figure10;
  /** For a destructive or qos group: its first failing adversarial run (by configuration, then seed). */
  witness?: Witness;
}

/** The rows of a table, columns padded (the first to the left). */
function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (r: string[]) =>
    r.map((x, k) => (k === 0 ? x.padEnd(widths[k]) : x.padStart(widths[k]))).join('  ');
  return [line(head), ...rows.map(line)];
}

/**
 * A logged read as a witness line: `T3 at f.mjs:21:11 read 0 (newest 7): the initial value; 2 values visible`,
 * `… read 7: written by T2 at f.mjs:16:5; …`, `… read 1023 (newest 2043): torn, halves written by T2 at … and T3 at …`.
 */
export function readText(r: LoggedRead): string {
  const w = (x: LoggedRead['writer']) => (x === null ? 'the initial value' : `${x.thread} at ${x.site}`);
  const from =
    r.second !== undefined
      ? `torn, halves written by ${w(r.writer)} and ${w(r.second)}`
      : r.writer === null
        ? 'the initial value'
        : `written by ${w(r.writer)}`;
  const newest = r.value !== r.newest ? ` (newest ${r.newest})` : '';
  return `${r.thread} at ${r.site} read ${r.value}${newest}: ${from}; ${r.choices} values visible`;
}

/** Witness reads shown in the text (all are in the JSON). */
const READS_SHOWN = 10;

/** The Figure 9 table: per group, the failure rate (%) of each configuration, the reads with a choice, the verdict. */
export function figure9(program: string, groups: GroupResult[], runs: number): string {
  const rows = groups.map((g) => [
    g.name,
    ...CONFIGURATIONS.map((c) => String(Math.round(g.rates[c] * 100))),
    String(g.exercised),
    g.verdict,
  ]);
  const out = [
    `JUMBLE (adversarial memory, PLDI 2010 §6): ${program}, ${runs} run${runs === 1 ? '' : 's'} per configuration; failure rate (%)`,
    ...table(['location', ...CONFIGURATIONS, 'exercised', 'verdict'], rows),
  ];
  for (const g of groups) {
    const w = g.witness;
    if (w === undefined) continue;
    out.push(`witness for ${g.name}: ${w.configuration} seed ${w.seed}, ${w.kind}: ${w.message}`);
    const stale = w.reads.filter((r) => r.stale);
    const shown = (stale.length > 0 ? stale : w.reads).slice(0, READS_SHOWN);
    if (shown.length > 0)
      out.push(
        `  jumbled reads (${stale.length} of ${w.reads.length} logged returned an older or torn value${shown.length < stale.length ? `; the first ${shown.length}` : ''}):`,
        ...shown.map((r) => `    ${readText(r)}`),
      );
    out.push(`  rerun: ${w.command}`);
  }
  if (groups.length === 0) out.push('no racy location: nothing to jumble');
  return `${out.join('\n')}\n`;
}

/** The Figure 10 table: per group, the `sc` runs' slowdown against plain node and their write buffers. */
export function figure10(groups: GroupResult[]): string {
  if (groups.length === 0) return '';
  const rows = groups.map((g) => {
    const f = g.figure10;
    return [
      g.name,
      f.slowdown === null ? '-' : `${f.slowdown.toFixed(2)}×`,
      String(f.instances),
      String(f.writes),
      String(f.maxLengthUncompressed),
      String(f.maxLength),
      String(f.removeOldest),
      String(f.droppedVisible),
    ];
  });
  const head = [
    'location',
    'sc slowdown',
    'instances',
    'writes',
    'max buffer',
    'compressed',
    '[REMOVE OLDEST]',
    'still visible',
  ];
  return `${[
    'Figure 10 (PLDI 2010 §6.2): the sc runs against plain node (median wall time); per run on average, the buffers made, writes, [REMOVE OLDEST] removals (and of entries still visible); the longest buffer without and with [GC1]/[GC2]',
    ...table(head, rows),
  ].join('\n')}\n`;
}
