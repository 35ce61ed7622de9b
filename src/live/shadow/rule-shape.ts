/**
 * The shape of the Figure 5 rules (PLDI'07 §4; `../../detectors/goldilocks/rules.ts`) that the collector's passes rely
 * on (`./batch.ts`, `./chains.ts`): every rule is distributive — f(A ∪ B) = f(A) ∪ f(B) and f(∅) = ∅ — and changes
 * only the elements its cell names (its thread u and target y; u and R ∪ W for a commit). A cell's effect on many
 * locksets at once is then its effect on those singletons. The images of the singletons come from running the shared
 * rules themselves on one-element locksets (no second copy of the rules), probed once per kind and cached here; a
 * rule that ever breaks the shape makes the probe throw.
 */
import { applyCommit, applyRule } from '../../detectors/goldilocks/rules.js';
import { DATA, LiveLockset } from './lockset.js';

/** Symbolic thread and target of a kind's probe, and an element the cell does not name. */
const U = 1;
const Y = 2;
const X = 3;
/** Bits of a kind's transfer pattern: which of u, y is in the image of {u}, of {y}. */
export const U_TO_U = 1;
export const U_TO_Y = 2;
export const Y_TO_U = 4;
export const Y_TO_Y = 8;
/** The pattern of a rule that changes nothing. */
export const IDENTITY = U_TO_U | Y_TO_Y;

const probe = new LiveLockset();
/** Per cell kind, its transfer pattern; see {@link transferPattern}. */
const patterns = new Map<number, number>();
/** Whether {@link checkCommitJoins} has passed. */
let joins = false;

/** The image of {e} (or of ∅ when e is undefined) under the rule of a cell of `kind`, thread u, target y. */
export function singletonImage(kind: number, u: number, y: number, e: number | undefined): Set<number> {
  probe.load(e === undefined ? [] : [e], -1);
  applyRule(probe, kind, u, y, null);
  return new Set(probe.keys);
}

/**
 * The transfer pattern of `kind` (U_TO_U | U_TO_Y | Y_TO_U | Y_TO_Y bits): which of u, y the images of {u} and {y}
 * hold, for a cell whose thread and target differ.
 * @throws Error when the rule is not of the shape the passes rely on (see the file header).
 */
export function transferPattern(kind: number): number {
  let p = patterns.get(kind);
  if (p !== undefined) return p;
  const ofU = singletonImage(kind, U, Y, U);
  const ofY = singletonImage(kind, U, Y, Y);
  const ofX = singletonImage(kind, U, Y, X);
  const ofNone = singletonImage(kind, U, Y, undefined);
  const within = (s: Set<number>) => [...s].every((k) => k === U || k === Y);
  if (!within(ofU) || !within(ofY) || ofX.size !== 1 || !ofX.has(X) || ofNone.size !== 0)
    throw new Error(`the rule of sync kind ${kind} is not distributive over the elements its cell names`);
  p =
    (ofU.has(U) ? U_TO_U : 0) |
    (ofU.has(Y) ? U_TO_Y : 0) |
    (ofY.has(U) ? Y_TO_U : 0) |
    (ofY.has(Y) ? Y_TO_Y : 0);
  patterns.set(kind, p);
  return p;
}

/**
 * Checks that rule 9 (the shared `applyCommit`) maps the singleton of each element it names — the committing thread
 * and each data variable of R ∪ W — to the set of all of them, keeps every other singleton and ∅: probed once on a
 * symbolic commit of thread U over two variables (the rule treats the variables of R ∪ W alike). A pass then makes
 * each named element's row the union of the named rows.
 * @throws Error when the rule is not of that shape.
 */
export function checkCommitJoins(): void {
  if (joins) return;
  const set = Int32Array.of(1, 2);
  const all = [U, DATA + 1, DATA + 2];
  const image = (e: number | undefined) => {
    probe.load(e === undefined ? [] : [e], -1);
    applyCommit(probe, U, set, 0, set.length);
    return [...probe.keys].sort((a, b) => a - b);
  };
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((k, i) => k === b[i]);
  if (!all.every((e) => same(image(e), all)) || !same(image(X), [X]) || image(undefined).length !== 0)
    throw new Error('rule 9 (commit) does not map each element it names to all it names');
  joins = true;
}
