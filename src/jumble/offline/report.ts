/**
 * The `adversarial` section of `goldilocks check --adversarial`'s report (./analysis.ts; schema in docs/REPORT.md,
 * "Adversarial memory"), as JSON and as text: per-class read counts, the locations whose reads had a choice or were
 * stale or unexplained, and up to `--max-reports` example reads per class with their alternatives.
 */
import type { Symbols } from '../../model/symbols.js';
import { grouped } from '../../report/text.js';
import {
  type AdversarialAnalysis,
  READ_CLASSES,
  type ReadClass,
  type ReadExample,
  type WriteRef,
} from './analysis.js';

/** A write as the report names it. */
export interface JsonWrite {
  /** The value written as the trace spells it; `initial` for the initial entry 0@⊥; null when unknown. */
  value: string | null;
  /** The writer; null for the initial entry. */
  thread: string | null;
  /** Event index of the write (-1: the initial entry). */
  index: number;
  /** Line of the write in the trace (0: the initial entry). */
  line: number;
  location: string;
}

export interface JsonReadExample {
  index: number;
  line: number;
  thread: string;
  variable: string;
  location: string;
  value: string | null;
  /** The write the read is taken to have read from (absent when unexplained). */
  readFrom?: JsonWrite;
  newest: JsonWrite;
  /** The distinct visible values, oldest first, each with its newest visible write. */
  alternatives: JsonWrite[];
}

export interface JsonAdversarialLocation {
  variable: string;
  reads: number;
  /** Reads with two or more distinct visible values. */
  choiceReads: number;
  /** Largest number of distinct visible values of a read. */
  maxDistinct: number;
  staleObserved: number;
  scViolationPossible: number;
  futureRead: number;
  unexplained: number;
  noValue: number;
  writes: number;
  /** Longest the buffer got after garbage collection, and without it (writes since the last alloc). */
  maxBuffer: number;
  maxBufferUncompressed: number;
  /** [REMOVE OLDEST] removals, and those of an entry some thread could still read. */
  removeOldest: number;
  droppedVisible: number;
  /**
   * Reads with a choice of a field RoadRunner marks as 8 bytes (`_J` long, `_D` double): under the JMM they may also
   * tear (halves of two writes; the paper's §5.2).
   */
  tearPossible: number;
}

export interface JsonAdversarial {
  /** [REMOVE OLDEST]'s bound. */
  bound: number;
  /** Value texts read as the initial value (besides `0x0…`). */
  initialValues: string[];
  summary: {
    reads: number;
    /** Reads by class. */
    classes: Record<ReadClass, number>;
    choiceReads: number;
    writes: number;
    /** Variables accessed (one write buffer each). */
    locations: number;
    gc1Removed: number;
    gc2Removed: number;
    removeOldest: number;
    droppedVisible: number;
    /** Unexplained reads not kept waiting for a future write (too many waited): they stay unexplained. */
    pendingDropped: number;
  };
  /** Locations with a read that had a choice, or a stale-observed or unexplained read; most choices first. */
  locations: JsonAdversarialLocation[];
  locationsOmitted: number;
  /** Campaign candidates: variables with a read that had a choice (only these can be jumbled in a similar run). */
  candidates: string[];
  /** Racy variables (of the detector run) that were read but never with a choice: same-value or read-then-write races. */
  noChoiceRaces?: string[];
  /** Up to --max-reports example reads per class (sc and no-value: none). */
  examples: Partial<Record<ReadClass, JsonReadExample[]>>;
  examplesOmitted: Partial<Record<ReadClass, number>>;
}

/**
 * The JSON section of an analysis.
 * @param racy the racy variables of the detector run, for `noChoiceRaces` (omitted when undefined).
 */
export function adversarialJson(
  a: AdversarialAnalysis,
  s: Symbols,
  maxReports: number,
  racy?: readonly string[],
): JsonAdversarial {
  const all: JsonAdversarialLocation[] = [];
  const candidates: string[] = [];
  const readNoChoice = new Set<string>();
  const summary: JsonAdversarial['summary'] = {
    reads: 0,
    classes: Object.fromEntries(READ_CLASSES.map((c, i) => [c, a.classCounts[i]])) as Record<
      ReadClass,
      number
    >,
    choiceReads: 0,
    writes: 0,
    locations: 0,
    gc1Removed: 0,
    gc2Removed: 0,
    removeOldest: 0,
    droppedVisible: 0,
    pendingDropped: a.pendingDropped,
  };
  a.locations.forEach((l, x) => {
    if (l === undefined) return;
    const b = l.buffer;
    const variable = s.variables.name(x);
    summary.reads += l.reads;
    summary.choiceReads += l.choiceReads;
    summary.writes += b.writes;
    summary.locations++;
    summary.gc1Removed += b.gc1Removed;
    summary.gc2Removed += b.gc2Removed;
    summary.removeOldest += b.oldestRemoved;
    summary.droppedVisible += b.droppedVisible;
    if (l.choiceReads > 0) candidates.push(variable);
    else if (l.reads > 0) readNoChoice.add(variable);
    const [, scv, stale, future, unexplained, noValue] = l.classes;
    if (l.choiceReads === 0 && stale === 0 && future === 0 && unexplained === 0) return;
    all.push({
      variable,
      reads: l.reads,
      choiceReads: l.choiceReads,
      maxDistinct: l.maxDistinct,
      staleObserved: stale,
      scViolationPossible: scv,
      futureRead: future,
      unexplained,
      noValue,
      writes: b.writes,
      maxBuffer: b.maxLength,
      maxBufferUncompressed: b.maxUncompressed,
      removeOldest: b.oldestRemoved,
      droppedVisible: b.droppedVisible,
      tearPossible: /_[JD]$/.test(variable) ? l.choiceReads : 0,
    });
  });
  all.sort(
    (p, q) =>
      q.choiceReads - p.choiceReads || q.staleObserved + q.unexplained - p.staleObserved - p.unexplained,
  );
  const examples: JsonAdversarial['examples'] = {};
  const examplesOmitted: JsonAdversarial['examplesOmitted'] = {};
  READ_CLASSES.forEach((c, i) => {
    if (c === 'sc' || c === 'no-value') return;
    examples[c] = a.examples[i].map((e) => jsonExample(e, s));
    examplesOmitted[c] = a.classCounts[i] - a.examples[i].length;
  });
  const out: JsonAdversarial = {
    bound: a.bound,
    initialValues: [...a.initialValues],
    summary,
    locations: all.slice(0, maxReports),
    locationsOmitted: Math.max(0, all.length - maxReports),
    candidates,
    examples,
    examplesOmitted,
  };
  if (racy !== undefined) out.noChoiceRaces = racy.filter((v) => readNoChoice.has(v));
  return out;
}

function jsonWrite(w: WriteRef, s: Symbols): JsonWrite {
  return {
    value: w.thread < 0 ? 'initial' : w.value < 0 ? null : s.values.name(w.value),
    thread: w.thread < 0 ? null : s.threads.name(w.thread),
    index: w.index,
    line: w.line,
    location: w.loc < 0 ? '' : s.locations.name(w.loc),
  };
}

function jsonExample(e: ReadExample, s: Symbols): JsonReadExample {
  const j: JsonReadExample = {
    index: e.index,
    line: e.line,
    thread: s.threads.name(e.thread),
    variable: s.variables.name(e.variable),
    location: s.locations.name(e.loc),
    value: s.values.name(e.value),
    newest: jsonWrite(e.newest, s),
    alternatives: e.alternatives.map((w) => jsonWrite(w, s)),
  };
  if (e.readFrom !== undefined) j.readFrom = jsonWrite(e.readFrom, s);
  return j;
}

const HEADS: Record<string, string> = {
  'sc-violation-possible': 'read the newest value, but older ones were visible',
  'stale-observed': 'read an older visible value',
  'future-read': 'read the value of a later write not ordered after it: HBMM and ECMA-262, not PJMM',
  unexplained: 'read a value no visible write wrote',
};

/** The section as text, ending in a newline. */
export function adversarialText(j: JsonAdversarial): string {
  const s = j.summary;
  const c = s.classes;
  const out = [
    '==================',
    'ADVERSARIAL MEMORY (Jumble, PLDI 2010 §4-5): what the reads of this trace could have returned',
    `  ${grouped(s.reads)} reads: ${READ_CLASSES.map((k) => `${grouped(c[k])} ${k}`).join(', ')}`,
    `  ${grouped(s.choiceReads)} reads had a choice (two or more distinct visible values); ${grouped(s.writes)} writes to ${grouped(s.locations)} locations`,
    `  write buffers: bound ${j.bound}; removed by [GC1] ${grouped(s.gc1Removed)}, [GC2] ${grouped(s.gc2Removed)}, [REMOVE OLDEST] ${grouped(s.removeOldest)} (${grouped(s.droppedVisible)} still visible)`,
  ];
  if (s.pendingDropped > 0)
    out.push(
      `  ${grouped(s.pendingDropped)} unexplained reads were not checked for a future write (too many waited)`,
    );
  if (j.locations.length > 0) {
    out.push('  locations:');
    for (const l of j.locations) {
      out.push(
        `    ${l.variable}: ${l.reads} reads, ${l.choiceReads} with a choice (max ${l.maxDistinct} values), ` +
          `${l.staleObserved} stale-observed, ${l.futureRead} future-read, ${l.unexplained} unexplained; ` +
          `${l.writes} writes, ` +
          `max buffer ${l.maxBuffer} entries (without GC: ${l.maxBufferUncompressed} writes), ${l.removeOldest} [REMOVE OLDEST]` +
          (l.tearPossible > 0 ? `; ${l.tearPossible} reads may tear (8-byte field)` : ''),
      );
    }
    if (j.locationsOmitted > 0) out.push(`    (${j.locationsOmitted} more locations; --max-reports)`);
  }
  if (j.noChoiceRaces !== undefined && j.noChoiceRaces.length > 0)
    out.push(
      `  racy but never a choice (same-value or read-then-write races): ${j.noChoiceRaces.join(', ')}`,
    );
  for (const [k, list] of Object.entries(j.examples)) {
    if (list === undefined || list.length === 0) continue;
    const omitted = j.examplesOmitted[k as ReadClass] ?? 0;
    out.push(
      `  ${k} (${HEADS[k]}): ${list.length + omitted}${omitted > 0 ? `, showing ${list.length}` : ''}`,
    );
    for (const e of list) {
      const at = e.location === '' ? '' : ` at ${e.location}`;
      out.push(`    event ${e.index} (line ${e.line}): ${e.thread} read ${e.variable} = ${e.value}${at}`);
      if (e.readFrom !== undefined && (k === 'stale-observed' || k === 'future-read'))
        out.push(`      ${k === 'future-read' ? 'later ' : ''}written by ${writeText(e.readFrom)}`);
      out.push(`      newest: ${writeText(e.newest)}`);
      out.push(`      visible: ${e.alternatives.map(writeText).join('; ')}`);
    }
  }
  out.push('==================');
  return `${out.join('\n')}\n`;
}

function writeText(w: JsonWrite): string {
  if (w.thread === null) return 'initial value';
  const at = w.location === '' ? '' : ` at ${w.location}`;
  return `${w.value ?? '?'} (${w.thread}, event ${w.index}, line ${w.line}${at})`;
}
