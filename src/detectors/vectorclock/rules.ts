/**
 * The vector-clock transfer rules of the extended happens-before (Goldilocks PLDI'07 §3, with vector clocks as in
 * FastTrack PLDI'09 §2: C_t a thread's clock, L_l a lock's, V_v a volatile's or atomic location's, `inc_t` =
 * C_t[t]++), shared by the offline vector-clock detectors (`./base.ts`, storage `./clocks.ts`) and the live one
 * (`src/live/shadow/fasttrack.ts`, storage in the shared heap). Pure and storage-free: each rule is a few calls of a
 * {@link ClockStore}, which each front end implements once (so every call site here sees one class per process,
 * and the join loops stay in the store, tight over its own layout).
 *
 * The rules, with the sources of the edges:
 * - acquire(t, l): C_t ⊔= L_l;  release(t, l): L_l ⊔= C_t, inc_t (Lamport; Figure 5 rules 4, 5).
 * - Java volatile read(t, v): C_t ⊔= V_v;  volatile write(t, v): V_v ⊔= C_t, inc_t (every earlier write → later
 *   read, JLS §17.4.4); the goldilocks/sync library's subscribe / publish are these.
 * - ECMA-262 atomic read(t, v): C_t ⊔= V_v;  atomic write(t, v): V_v := C_t (a copy: an atomic read
 *   synchronizes-with only the write it reads from: ECMA-262 §29, Memory Model), inc_t;
 *   read-modify-write: the read, then the write. A message send(t, m) is an atomic write of m and its receive an
 *   atomic read (one sender per message).
 * - fork(t, u): C_u ⊔= C_t, inc_t;  join(t, u): C_t ⊔= C_u, inc_u.
 * - commit(t, R, W) (§5.3: two transactions are ordered when they share a variable): for each y ∈ R ∪ W,
 *   C_t ⊔= TX_y ({@link commitEnter}); the accesses are checked; then TX_y ⊔= C_t for each y
 *   ({@link commitLeave}) and inc_t once ({@link commitEnd}).
 */

/**
 * The clocks of one front end, named by keys of type K (a row of a clock table, an entry of the shared heap).
 * Implementations keep their join and copy loops monomorphic over their own layout.
 */
export interface ClockStore<K> {
  /** dst := dst ⊔ src (componentwise maximum). */
  join(dst: K, src: K): void;
  /** dst := src. */
  copy(dst: K, src: K): void;
  /** c[t]++ (the epoch of thread t in clock c moves on). */
  tick(c: K, t: number): void;
}

/** acquire(t, l): C_t ⊔= L_l (Figure 5 rule 4). */
export function acquire<K>(s: ClockStore<K>, Ct: K, Ll: K): void {
  s.join(Ct, Ll);
}

/** release(t, l): L_l ⊔= C_t, inc_t (Figure 5 rule 5). */
export function release<K>(s: ClockStore<K>, Ct: K, t: number, Ll: K): void {
  s.join(Ll, Ct);
  s.tick(Ct, t);
}

/** Java volatile read (and sync-library subscribe): C_t ⊔= V_v. */
export const volatileRead = acquire;

/** Java volatile write (and sync-library publish): V_v ⊔= C_t, inc_t (every earlier write → later read). */
export const volatileWrite = release;

/** ECMA-262 atomic read (and message receive): C_t ⊔= V_v. */
export const atomicRead = acquire;

/** ECMA-262 atomic write (and message send): V_v := C_t, a copy (only the write read from synchronizes), inc_t. */
export function atomicWrite<K>(s: ClockStore<K>, Ct: K, t: number, Vv: K): void {
  s.copy(Vv, Ct);
  s.tick(Ct, t);
}

/** ECMA-262 read-modify-write: the atomic read, then the atomic write. */
export function atomicReadModifyWrite<K>(s: ClockStore<K>, Ct: K, t: number, Vv: K): void {
  s.join(Ct, Vv);
  atomicWrite(s, Ct, t, Vv);
}

/** fork(t, u): C_u ⊔= C_t, inc_t. */
export function fork<K>(s: ClockStore<K>, Ct: K, t: number, Cu: K): void {
  s.join(Cu, Ct);
  s.tick(Ct, t);
}

/** join(t, u): C_t ⊔= C_u, inc_u. */
export function join<K>(s: ClockStore<K>, Ct: K, Cu: K, u: number): void {
  s.join(Ct, Cu);
  s.tick(Cu, u);
}

/** commit, step 1, for each y ∈ R ∪ W: C_t ⊔= TX_y (§5.3). */
export const commitEnter = acquire;

/** commit, step 3, for each y ∈ R ∪ W, after the accesses are checked: TX_y ⊔= C_t (§5.3). */
export function commitLeave<K>(s: ClockStore<K>, Ct: K, TXy: K): void {
  s.join(TXy, Ct);
}

/** commit, step 4: inc_t, once. */
export function commitEnd<K>(s: ClockStore<K>, Ct: K, t: number): void {
  s.tick(Ct, t);
}
