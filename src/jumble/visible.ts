/**
 * The [READ] rule of the Operational PJMM (Flanagan & Freund, PLDI'10, §4.1 Figure 6; the set `Vis` of §5.1): entry
 * i of `W_x = v_1@K_1 · … · v_n@K_n` is readable by thread t unless a later entry j both happens after it and before
 * the read, `∀j ∈ i+1..n. ¬(K_i ⊑ K_j ⊑ C_t)`. Computed by one backward scan with epoch tests (../shared/JUMBLE.md
 * §4.6.2-3): `K_j ⊑ X ⟺ K_j(t_j) ≤ X(t_j)` for the project's clock rules (every publication is followed by inc_t),
 * so entry i is hidden iff `K_i(t_i) ≤ M(t_i)` where M joins the clocks of the later entries j with K_j ⊑ C_t
 * (the initial entry `0@⊥` is hidden iff any such j exists). O(n · width), no allocation: the caller gives the output
 * array, the running join M is a module scratch row. When the entries form a chain (`WriteBuffer.chain`: K_i ⊑ K_j
 * for i < j), the entries j with K_j ⊑ C_t are a prefix and hide every older entry, so Vis is the entries from the
 * newest of them on: a scan of epoch tests from the newest entry, O(|Vis|), the clock rows unread.
 *
 * The hot path of a jumbled read; {@link distinct} reduces the visible entries to the distinct values the heuristics
 * choose among (§5.1, JUMBLE.md §11.3).
 */
import type { WriteBuffer } from './buffer.js';

/** The running join M of the backward scan (grown to the widest buffer seen). */
let M = new Int32Array(8);

/**
 * The entries of `b` visible to a read by a thread with clock C_t (`cw` Int32 at `C[off …]`): their indices, oldest
 * first, in `out[0 … k-1]`. @returns k ≥ 1 (the newest entry is always visible). `out` must hold `b.length` entries.
 */
export function visible(b: WriteBuffer, C: Int32Array, off: number, cw: number, out: Int32Array): number {
  if (b.chain) {
    let i = b.length - 1;
    while (i > 0 && !b.before(i, C, off, cw)) i--;
    let k = 0;
    for (; i < b.length; i++) out[k++] = i;
    return k;
  }
  const w = b.width;
  if (M.length < w) M = new Int32Array(w);
  const m = M;
  m.fill(0, 0, w);
  const tid = b.tid;
  const epoch = b.epoch;
  const clock = b.clock;
  let blocker = false;
  let k = 0;
  for (let i = b.length - 1; i >= 0; i--) {
    const t = tid[i];
    const e = epoch[i];
    if (t < 0) {
      // the initial entry ⊥: hidden by any later entry that happens before the read; a blocker for nothing older
      if (!blocker) out[k++] = i;
      continue;
    }
    if (e > m[t]) out[k++] = i;
    if (e <= (t < cw ? C[off + t] : 0)) {
      // K_i ⊑ C_t: entry i hides the older entries its clock covers
      blocker = true;
      const r = i * w;
      for (let u = 0; u < w; u++) if (clock[r + u] > m[u]) m[u] = clock[r + u];
    }
  }
  // oldest first
  for (let a = 0, z = k - 1; a < z; a++, z--) {
    const x = out[a];
    out[a] = out[z];
    out[z] = x;
  }
  return k;
}

/**
 * The distinct values among visible entries `vis[0 … k-1]` (oldest first, from {@link visible}): for each value, in
 * the order of its oldest visible occurrence, the index of its newest visible entry (the most SC-like writer of that
 * value: JUMBLE.md §12), in `out`. Unknown values (NaN) are each distinct. @returns their count |D| ≥ 1.
 */
export function distinct(b: WriteBuffer, vis: Int32Array, k: number, out: Int32Array): number {
  const value = b.value;
  let d = 0;
  for (let a = 0; a < k; a++) {
    const i = vis[a];
    const v = value[i];
    let j = 0;
    while (j < d && value[out[j]] !== v) j++;
    out[j] = i;
    if (j === d) d++;
  }
  return d;
}
