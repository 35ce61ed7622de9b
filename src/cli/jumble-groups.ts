/**
 * The location groups of a `goldilocks jumble` campaign (issue 22 §3; ../shared/JUMBLE.md §13.5): the racy
 * locations of a detection run's report grouped by **allocation site of the SharedArrayBuffer** (`file:line:column`
 * of its `new SharedArrayBuffer`, the race record's `allocation.location`) + **byte offset** + **access size** — the
 * analogue of a Java field over all its instances, which Jumble jumbles one at a time (Flanagan & Freund, PLDI'10
 * §5.2, §6: "all instances" of one syntactic field). A group is jumbled in every buffer made at its site (the
 * locations-file line `FILE:LINE:COLUMN+O/S`, `../live/jumble/locations.ts`).
 *
 * A racy variable none of whose race records names an allocation site (a buffer made where the runtime could not
 * name the site, a WebAssembly memory, a report of another tool) is a group of its own, selected by its buffer id
 * (`sab#B+O`), with `site` null.
 */
import path from 'node:path';
import { siteLocation } from '../live/jumble/locations.js';

/** One group: the locations a campaign cell jumbles. */
export interface Group {
  /** The allocation site of its buffers (`file:line:column`), or null (a group of one buffer, by id). */
  site: string | null;
  /** First byte of the racy accesses in their buffer. */
  offset: number;
  /** Bytes of the racy accesses (the race records' current access), or null when unknown. */
  size: number | null;
  /** The racy variables of the detection run in this group (`sab#B+O`, `<n>/` prefixed per process). */
  variables: string[];
  /** The line of a `--jumble-locations` file that selects the group. */
  location: string;
}

/** What the grouping reads of a report (`docs/REPORT.md`, goldilocks run's JSON). */
export interface RacesReport {
  racyVariables: string[];
  races?: {
    variable: string;
    memory?: { byteOffset: number; size: number };
    allocation?: { location: string };
  }[];
}

/** The groups of the racy locations of `report`, in the order of the variables' first races. */
export function groupsOf(report: RacesReport): Group[] {
  const groups = new Map<string, Group>();
  const keysOf = new Map<string, string[]>();
  for (const r of report.races ?? []) {
    const site = r.allocation?.location;
    if (!site || r.memory === undefined) continue;
    const { byteOffset: offset, size } = r.memory;
    const location = siteLocation(site, offset, size);
    const g = groups.get(location) ?? { site, offset, size, variables: [], location };
    groups.set(location, g);
    if (!g.variables.includes(r.variable)) g.variables.push(r.variable);
    const keys = keysOf.get(r.variable) ?? [];
    if (!keys.includes(location)) keys.push(location);
    keysOf.set(r.variable, keys);
  }
  const out: Group[] = [];
  for (const v of report.racyVariables) {
    const keys = keysOf.get(v);
    if (keys === undefined) {
      const variable = v.replace(/^\d+\//, '');
      const offset = Number(/\+(\d+)$/.exec(variable)?.[1] ?? 0);
      const size = report.races?.find((r) => r.variable === v)?.memory?.size ?? null;
      out.push({ site: null, offset, size, variables: [v], location: variable });
    } else for (const k of keys) if (!out.includes(groups.get(k)!)) out.push(groups.get(k)!);
  }
  return out;
}

/** A group's name in tables: its site relative to the working directory when under it, `+offset/size`. */
export function groupName(g: Group, cwd = process.cwd()): string {
  if (g.site === null) return g.location;
  const rel = path.isAbsolute(g.site) ? path.relative(cwd, g.site) : g.site;
  const site = rel.startsWith('..') ? g.site : rel;
  return siteLocation(site, g.offset, g.size ?? undefined);
}
