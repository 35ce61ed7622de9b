/**
 * The kinds of synchronization events: the kinds of the cells of the synchronization event list (Goldilocks,
 * PLDI'07 §4 Figure 8; CACM §4.1), one vocabulary for both front ends — the offline list of
 * `../detectors/goldilocks/sync-list.ts` (Uint8 kinds) and the live list of `../live/memory/state.ts` (Int32 cells
 * `kind, thread, a, b`), which `../cli/record.ts` turns into trace events.
 *
 * Each kind names the lockset rule of Figure 5 that a walk applies to it (`../detectors/goldilocks/rules.ts`), with
 * `u` the cell's thread and `y` its target (lock, volatile, atomic location, message, or thread). Rules that only add
 * elements are monotone; the ECMA-262 atomic write (rule 3′) is the one rule that removes: a seq-cst write
 * synchronizes-with only the reads that read from it (ECMA-262 §29.7 "synchronizes-with"), so the location then
 * carries only this write's happens-before. Kinds 1…14, never 0 (a live cell of kind 0 is one not yet written).
 */
export const SyncKind = {
  /** acq(u, y), rule 4: y ∈ LS ⇒ add u. */
  Acquire: 1,
  /** rel(u, y), rule 5: u ∈ LS ⇒ add y. */
  Release: 2,
  /** fork(u, y) (y the child thread), rule 6: u ∈ LS ⇒ add y. */
  Fork: 3,
  /** join(u, y) (y the joined thread), rule 7: y ∈ LS ⇒ add u. */
  Join: 4,
  /** ECMA-262 atomic read of location y by u: rule 2 (as a volatile read): y ∈ LS ⇒ add u. */
  AtomicRead: 5,
  /** ECMA-262 atomic write of y by u, rule 3′: u ∈ LS ⇒ add y; else remove y. */
  AtomicWrite: 6,
  /** ECMA-262 atomic read-modify-write of y by u: AtomicRead's rule, then AtomicWrite's. */
  AtomicRmw: 7,
  /** Live: a message sent (y the message); rule 3 (a volatile write of a fresh variable): u ∈ LS ⇒ add y. */
  Send: 8,
  /** Live: a message delivered to u; rule 2 (a volatile read of the message's variable): y ∈ LS ⇒ add u. */
  Receive: 9,
  /** Live: `publish` of the goldilocks/sync library; rule 3 (a Java volatile write, never removes). */
  Publish: 10,
  /** Live: `subscribe` of the goldilocks/sync library; rule 2 (a Java volatile read). */
  Subscribe: 11,
  /** A Java volatile read (offline `vr`, and `ar` of a trace: same rule); rule 2: y ∈ LS ⇒ add u. */
  VolatileRead: 12,
  /** A Java volatile write (offline `vw`); rule 3: u ∈ LS ⇒ add y. */
  VolatileWrite: 13,
  /**
   * §5.3 transaction commit(u, R, W) (offline; the cell carries R ∪ W), rule 9: LS ∩ (R ∪ W) ≠ ∅ ⇒ add u; then
   * u ∈ LS ⇒ add R ∪ W.
   */
  Commit: 14,
} as const;
export type SyncKindId = (typeof SyncKind)[keyof typeof SyncKind];

/**
 * Whether a rule of kind `kind` may remove an element from the lockset (the ECMA-262 atomic write, alone or in a
 * read-modify-write). All other rules only add. Direct ownership transfer (§5.1) may skip only rules that add.
 */
export const removes = (kind: number): boolean =>
  kind === SyncKind.AtomicWrite || kind === SyncKind.AtomicRmw;

/** Per kind, 1 when its rule adds the cell's target y to a lockset that holds its thread u (see {@link addsTarget}). */
const ADDS_TARGET = new Uint8Array(16);
for (const k of [
  SyncKind.Release,
  SyncKind.Fork,
  SyncKind.AtomicWrite,
  SyncKind.AtomicRmw,
  SyncKind.Send,
  SyncKind.Publish,
  SyncKind.VolatileWrite,
])
  ADDS_TARGET[k] = 1;

/**
 * Whether the rule of kind `kind` adds its target y to a lockset that holds its thread u: the releases of rules 3, 3′,
 * 5 and 6 and the read-modify-write (a table lookup: the live walk asks it per cell of an Info's owner).
 */
export const addsTarget = (kind: number): boolean => ADDS_TARGET[kind] === 1;
