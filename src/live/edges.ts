/**
 * Where the program's message edges came from, for race reports in the program's words (issue 25 §1): each
 * message's sender thread and the site of its `postMessage` call (the first {@link SENDS_NAMED} messages), and
 * each worker's `new Worker(...)` site (which hands it its `workerData`). Kept in the shared state
 * (`./memory/state.ts`: `sends`, `spawns`), so that any thread naming a lockset (`./lock-names.ts`) reads what
 * another thread noted. Each entry is written once, before its message is posted or its worker runs, and published
 * by an atomic store (the site first, then the thread: a reader that sees the thread sees the site).
 */
import { ensureBytes, rawAtomics, SENDS_NAMED, type StateViews } from './memory/state.js';
import { getString } from './memory/strings.js';

/** A message's origin: the sender thread (`T0`) and the `file:line:column` of its `postMessage` call. */
export interface SendOrigin {
  thread: string;
  site: string;
}

/** Notes message `m` as posted by thread `t` at site `site` (a string id); messages past SENDS_NAMED are not noted. */
export function noteSend(s: StateViews, m: number, t: number, site: number): void {
  if (m >= SENDS_NAMED) return;
  ensureBytes(s.state.sends, 8 * (m + 1));
  const entry = new Int32Array(s.state.sends, 8 * m, 2);
  rawAtomics.store(entry, 0, site + 1);
  rawAtomics.store(entry, 1, t + 1);
}

/** The origin of message `m`, or undefined when it was not noted (see {@link noteSend}). */
export function sendOf(s: StateViews, m: number): SendOrigin | undefined {
  if (m >= SENDS_NAMED || 8 * (m + 1) > s.state.sends.byteLength) return undefined;
  const entry = new Int32Array(s.state.sends, 8 * m, 2);
  const thread = rawAtomics.load(entry, 1);
  if (thread === 0) return undefined;
  return { thread: `T${thread - 1}`, site: getString(s, rawAtomics.load(entry, 0) - 1) };
}

/** Notes worker thread `child` as started at site `site` (a string id) of its `new Worker(...)`. */
export function noteSpawn(s: StateViews, child: number, site: number): void {
  ensureBytes(s.state.spawns, 4 * (child + 1));
  rawAtomics.store(new Int32Array(s.state.spawns, 4 * child, 1), 0, site + 1);
}

/** The `file:line:column` of the `new Worker(...)` that started thread `t`, or undefined (the main thread). */
export function spawnOf(s: StateViews, t: number): string | undefined {
  if (4 * (t + 1) > s.state.spawns.byteLength) return undefined;
  const site = rawAtomics.load(new Int32Array(s.state.spawns, 4 * t, 1), 0);
  return site === 0 ? undefined : getString(s, site - 1);
}
