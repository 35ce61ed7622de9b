/**
 * **The main thread alone.** Once every thread the main thread started (and every thread those started) has been
 * joined, and no other thread attached, only the main thread can access memory until it forks again. Then none of its
 * accesses can race, and none needs a check, a record or a synchronization cell:
 * - each earlier access of another thread happens-before it: a chain of joins (the cells `./threads.ts` appends
 *   when a worker's `'exit'` is emitted in its parent) ends in the main thread; PLDI'07 Figure 5 rule 7 adds the
 *   joiner to every lockset holding the joined thread, which holds every Info that thread owns;
 * - each later access of another thread comes after it: that thread is forked after it by the main thread or one of
 *   its descendants (rule 6: a fork cell after it; the main thread holds every lockset by then, so the child enters
 *   every one at its fork).
 * So skipping them changes no verdict of a happens-before detector (Goldilocks, FastTrack): an Info it does not
 * replace only stays older, and every lockset it would be checked against holds the main thread. Skipped only where
 * nothing else needs the accesses: not with `--record` (the trace keeps every event), jumbled memory (values), or a
 * lockset detector (Eraser's states are not happens-before).
 */
import { CTL, type StateViews } from './memory/state.js';

/**
 * Whether thread `t` is the main thread and the only one that can access memory now: every fork cell has its join
 * (`CTL.forks`, `CTL.joins`, both counted under the list lock after their cells) and every thread attached to the
 * runtime was forked (`CTL.threadCount`: the main thread and each forked worker once). A worker that ends without its
 * parent's `'exit'` (stopped with its parent) is never joined, and then the main thread is never alone again.
 *
 * Three plain reads of the control words, not atomic loads (which V8 does not inline: 15–20 ns each, the larger part
 * of an `Atomics` operation of the main thread alone). Exact all the same: the main thread's alone-ness changes only
 * by what it does itself or what is ordered before it. It starts at one of its own join counts (the count of a worker
 * that joined its own children was made before that worker's exit, under the list lock the main thread takes for its
 * join cell), and it ends at one of its own forks (its count and the new worker's attach both follow the main thread's
 * `new Worker()`, whose worker runs no code of the program before its fork cell, `./threads.ts` `awaitFork`); each is
 * in the main thread's program order or after a lock it acquired. Only a thread that attaches with no fork cell at all
 * (its parent died before appending it, which `awaitFork` reports) is seen whenever the read sees its count.
 */
export function mainAlone(s: StateViews, t: number): boolean {
  if (t !== 0) return false;
  const ctl = s.ctl;
  const forks = ctl[CTL.forks];
  return ctl[CTL.joins] === forks && ctl[CTL.threadCount] === 1 + forks;
}
