/**
 * The texts of a jumbled run's settings (`goldilocks run --jumble-locations FILE`, `--jumble-fairness K`), parsed
 * apart from the runtime so that the command line checks them before the run.
 *
 * The locations file: one location per line, blank lines and lines starting with `#` skipped. A line is either
 * - `sab#B+O`: byte offset O of the buffer of id B, as reports name variables (a process prefix `<n>/` is ignored);
 *   ids follow the order in which the process met its buffers, so this names one buffer of one run; or
 * - `FILE:LINE:COLUMN+O` or `FILE:LINE:COLUMN+O/S`: byte offset O (accesses of S bytes only, when given) of *every*
 *   SharedArrayBuffer made by the `new SharedArrayBuffer` at that source position (its allocation site, as race
 *   reports print it: `allocation.location`) — the analogue of a Java field over all its instances (Flanagan &
 *   Freund, PLDI'10 §5.2; ../shared/JUMBLE.md §13.5), what `goldilocks jumble` writes for a group.
 * An element access is jumbled when one of the named offsets of its buffer is among its bytes (and, with `/S`, the
 * access has S bytes).
 */
import { DEFAULT_FAIRNESS } from '../../jumble/heuristics.js';

/**
 * The jumbled locations: by buffer id, their byte offsets; by allocation site (`file:line:column`), pairs
 * (offset, size) flat, size 0 for any.
 */
export interface Locations {
  byId: Map<number, number[]>;
  bySite: Map<string, number[]>;
}

/** The text of the line of a location file naming offset `offset` (accesses of `size` bytes) of site `site`. */
export const siteLocation = (site: string, offset: number, size?: number): string =>
  `${site}+${offset}${size === undefined ? '' : `/${size}`}`;

/**
 * The locations of a locations file's text (see the file header).
 * @throws SyntaxError `line N: '<text>' is not a location (expected sab#B+O or FILE:LINE:COLUMN+O[/S])`.
 */
export function parseLocations(text: string): Locations {
  const out: Locations = { byId: new Map(), bySite: new Map() };
  const add = <K>(m: Map<K, number[]>, k: K, ...xs: number[]): void => {
    const list = m.get(k) ?? [];
    list.push(...xs);
    m.set(k, list);
  };
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const id = /^(?:\d+\/)?sab#(\d+)\+(\d+)$/.exec(line);
    const site = /^(.+:\d+:\d+)\+(\d+)(?:\/([1-9]\d*))?$/.exec(line);
    if (id !== null) add(out.byId, Number(id[1]), Number(id[2]));
    else if (site !== null) add(out.bySite, site[1], Number(site[2]), Number(site[3] ?? 0));
    else
      throw new SyntaxError(
        `line ${i + 1}: '${line}' is not a location (expected sab#B+O or FILE:LINE:COLUMN+O[/S])`,
      );
  }
  return out;
}

/**
 * The selection of buffer `id` made at `site` ('' when unknown): pairs (offset, size) flat, size 0 for any; empty
 * when none of its bytes is jumbled.
 */
export function selectionOf(locations: Locations, id: number, site: string): number[] {
  const out: number[] = [];
  for (const o of locations.byId.get(id) ?? []) out.push(o, 0);
  if (site !== '') out.push(...(locations.bySite.get(site) ?? []));
  return out;
}

/** The fairness bound of a `GOLDILOCKS_JUMBLE_FAIRNESS` text: a count ≥ 1, or `off`. @throws RangeError. */
export function parseFairness(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_FAIRNESS;
  if (text === 'off') return Number.POSITIVE_INFINITY;
  const k = Number(text);
  if (!Number.isInteger(k) || k < 1)
    throw new RangeError(`fairness '${text}' (expected a count ≥ 1, or off)`);
  return k;
}
