/**
 * The texts of a jumbled run's settings (`goldilocks run --jumble-locations FILE`, `--jumble-fairness K`), parsed
 * apart from the runtime so that the command line checks them before the run.
 *
 * The locations file: one location per line, `sab#B+O` (buffer id B, byte offset O, as reports name variables;
 * a process prefix `<n>/` is ignored), blank lines and lines starting with `#` skipped. An element access is
 * jumbled when one of the named offsets of its buffer is among its bytes.
 */
import { DEFAULT_FAIRNESS } from '../../jumble/heuristics.js';

/** The jumbled locations by buffer id: their byte offsets. */
export type Locations = Map<number, number[]>;

/**
 * The locations of a locations file's text (see the file header).
 * @throws SyntaxError `line N: '<text>' is not a location (expected sab#B+O)`.
 */
export function parseLocations(text: string): Locations {
  const out: Locations = new Map();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(?:\d+\/)?sab#(\d+)\+(\d+)$/.exec(line);
    if (m === null) throw new SyntaxError(`line ${i + 1}: '${line}' is not a location (expected sab#B+O)`);
    const id = Number(m[1]);
    const offsets = out.get(id) ?? [];
    offsets.push(Number(m[2]));
    out.set(id, offsets);
  });
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
