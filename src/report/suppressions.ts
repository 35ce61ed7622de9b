/**
 * Race suppressions (`--suppressions FILE` of `goldilocks check` and `goldilocks run`; issue 25 §2), in
 * ThreadSanitizer's format where it fits (compiler-rt `sanitizer_suppressions.cpp`, `tsan_suppressions.cpp`):
 *
 * ```
 * # a comment; blank lines are ignored
 * race:node_modules/legacy-lib/*        file (or URL) of a frame
 * race:^Connection.close$               function of a frame
 * race:@scope/pkg                       package (the node_modules directory) of a frame
 * race_top:ring.mjs                     only the first frame of each access (its location)
 * ```
 *
 * A pattern matches a text when it occurs in it, `*` standing for any characters, `^` anchoring it at the start
 * and `$` at the end (TSan's `TemplateMatch`). A race is suppressed by the first suppression of the file matching
 * the function, file or package of a frame of either access: its location, and, live, the frames of its stack.
 * Offline, a location is the trace's text: matched whole, by its file (the text before the first `:`) and, in
 * RoadRunner's `File.java:method:line` form, by its method. Suppressed races are counted, never silently dropped
 * (docs/REPORT.md "Suppressions").
 */
import { readFileSync } from 'node:fs';
import type { JsonReport, SuppressionCount } from './json.js';
import { parseLocation, parseStackLine } from './location.js';
import type { RaceAccess } from './race.js';

/** One line of a suppressions file. */
export interface Suppression {
  /** `race` (any frame) or `race_top` (the first frame of each access only). */
  type: 'race' | 'race_top';
  /** The pattern as written. */
  pattern: string;
  /** The file and 1-based line it was read from. */
  file: string;
  line: number;
  /** The pattern as a regular expression. */
  re: RegExp;
}

/** A line of a suppressions file that is not a suppression: its message names `file:line`. */
export class SuppressionError extends Error {
  override name = 'SuppressionError';
}

/** ThreadSanitizer's other suppression types: known, but not what goldilocks reports. */
const TSAN_TYPES = ['thread', 'mutex', 'signal', 'deadlock', 'called_from_lib'];

/** TSan's `TemplateMatch` as a regular expression: `*` any characters, `^`/`$` anchors, else a substring. */
function templateRegExp(pattern: string): RegExp {
  const start = pattern.startsWith('^');
  const end = pattern.endsWith('$') && pattern.length > (start ? 1 : 0);
  const body = pattern.slice(start ? 1 : 0, end ? -1 : undefined);
  const source = body
    .split('*')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`${start ? '^' : ''}${source}${end ? '$' : ''}`);
}

/**
 * The suppressions of `text`, read from `file` (for messages).
 * @throws SuppressionError `<file>:<line>: <what is wrong> (expected race:<pattern>)` for a line that is neither
 * blank, a `#` comment nor `race:`/`race_top:` with a non-empty pattern.
 */
export function parseSuppressions(text: string, file: string): Suppression[] {
  const out: Suppression[] = [];
  const expected = '(expected race:<pattern>, race_top:<pattern>, a # comment or a blank line)';
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const at = `${file}:${i + 1}`;
    const colon = line.indexOf(':');
    const type = colon < 0 ? '' : line.slice(0, colon).trim();
    const pattern = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (colon < 0) throw new SuppressionError(`${at}: '${line}' is not type:pattern ${expected}`);
    if (TSAN_TYPES.includes(type))
      throw new SuppressionError(
        `${at}: ThreadSanitizer's '${type}:' is not a data-race suppression ${expected}`,
      );
    if (type !== 'race' && type !== 'race_top')
      throw new SuppressionError(`${at}: unknown suppression type '${type}' ${expected}`);
    if (pattern === '' || pattern === '^' || pattern === '$' || pattern === '^$')
      throw new SuppressionError(`${at}: empty pattern ${expected}`);
    out.push({ type, pattern, file, line: i + 1, re: templateRegExp(pattern) });
  });
  return out;
}

/**
 * The suppressions of the file at `file`.
 * @throws SuppressionError for a bad line (see {@link parseSuppressions}); the file system's error when it cannot
 * be read.
 */
export function loadSuppressions(file: string): Suppression[] {
  return parseSuppressions(readFileSync(file, 'utf8'), file);
}

/** One frame's texts a pattern is matched against: function, file, package. */
type Frame = string[];

/** The package of a file path: the directory after its last `node_modules/` (`@scope/name` for a scoped one). */
function packageOf(file: string): string | undefined {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(file);
  return m?.[1];
}

/** The texts of a frame at location `loc` (see {@link parseLocation}) of function `fn`. */
function frame(loc: string, fn: string | undefined): Frame {
  const out = [loc];
  if (fn) out.push(fn);
  const { file, method } = parseLocation(loc);
  out.push(file);
  if (method) out.push(method);
  const pkg = packageOf(file);
  if (pkg) out.push(pkg);
  return out;
}

/** A V8 stack line as a frame; undefined for other lines. */
function stackFrame(line: string): Frame | undefined {
  const f = parseStackLine(line);
  return f && frame(f.location, f.fn);
}

/** The frames of an access, the first one (its location) first; `top`: that one only. */
function framesOf(a: RaceAccess, top: boolean): Frame[] {
  const out: Frame[] = [];
  if (a.location !== '') out.push(frame(a.location, undefined));
  if (top || !a.stack) return out;
  for (const line of a.stack.split('\n')) {
    const f = stackFrame(line);
    if (f) out.push(f);
  }
  return out;
}

/**
 * The index in `suppressions` of the first one that suppresses the race of `current` against `previous`, or -1.
 * Cold: called once per pair of source locations offline, once per race live.
 */
export function suppressionOf(
  suppressions: readonly Suppression[],
  current: RaceAccess,
  previous: RaceAccess,
): number {
  if (suppressions.length === 0) return -1;
  const all = [...framesOf(current, false), ...framesOf(previous, false)];
  const tops = [...framesOf(current, true), ...framesOf(previous, true)];
  for (let i = 0; i < suppressions.length; i++) {
    const s = suppressions[i];
    for (const f of s.type === 'race_top' ? tops : all) if (f.some((text) => s.re.test(text))) return i;
  }
  return -1;
}

/** The JSON report's list of `suppressions` with their counts (`matched[i]` for the i-th). */
export function suppressionCounts(
  suppressions: readonly Suppression[],
  matched: ArrayLike<number>,
): SuppressionCount[] {
  return suppressions.map((s, i) => ({
    suppression: `${s.type}:${s.pattern}`,
    at: `${s.file}:${s.line}`,
    matched: matched[i] ?? 0,
  }));
}

/**
 * The `--stats` lines of the races not reported: each suppression with how often it matched, each benign reason
 * with its count (none when the report has neither).
 */
export function excusedStatistics(j: Pick<JsonReport, 'suppressions' | 'benign'>): string[] {
  const out: string[] = [];
  if (j.suppressions) {
    out.push('suppressions (races suppressed):');
    for (const c of j.suppressions) out.push(`  ${`${c.suppression} (${c.at})`.padEnd(48)} ${c.matched}`);
  }
  if (j.benign) {
    out.push('benign races (annotated):');
    for (const b of j.benign) out.push(`  ${b.reason.padEnd(48)} ${b.count}`);
  }
  return out;
}

/**
 * Sums the excused races of the per-process `reports` of one run into `out`: the counts of each suppression
 * (every process read the same file) and of each benign reason.
 */
export function mergeExcused(out: JsonReport, reports: readonly JsonReport[]): void {
  const benign = new Map<string, number>();
  for (const r of reports) {
    if (r.suppressions)
      out.suppressions = r.suppressions.map((c, i) => ({
        ...c,
        matched: c.matched + (out.suppressions?.[i]?.matched ?? 0),
      }));
    for (const b of r.benign ?? []) benign.set(b.reason, (benign.get(b.reason) ?? 0) + b.count);
  }
  if (benign.size > 0) out.benign = [...benign].map(([reason, count]) => ({ reason, count }));
}
