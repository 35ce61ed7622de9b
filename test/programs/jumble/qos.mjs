// A race whose only effect is time (QoS, like the paper's tsp): worker 0 sets a plain flag; worker 1, ordered after
// it only by the invisible schedule (no happens-before), waits for the flag, doing a fixed amount of work at each
// test that finds it unset. Under plain node and SC the flag is set at the first test; Oldest returns the initial 0
// until the fairness rule forces the newest value (16 stale reads): 16 rounds of work, and still the right output.
//   node test/programs/jumble/qos.mjs   → done
import { workers } from '../sched.mjs';

const { main, joined, i, at, flag } = workers(import.meta.url, 2, () => ({
  flag: new Int32Array(new SharedArrayBuffer(8)),
}));
/**
 * 0.15–0.5 s of CPU time on the machines this runs on (a fixed count, not a clock: the same work on a loaded machine):
 * one round, Oldest-But-Different's one stale read, stays within the QoS margin (1 s beyond the sc runs), 16 rounds,
 * Oldest's, exceed it (2e8, 0.3 s on a fast host, took ~1 s on a slower one: one round then reached the margin).
 */
function work() {
  let acc = 0;
  for (let k = 0; k < 1e8; k++) acc = (acc * 31 + k) | 0;
  return acc;
}
if (main) {
  await joined;
  console.log('done');
} else if (i === 0) {
  at(0, () => {
    flag[0] = 1;
  });
} else {
  at(1, () => {
    while (flag[0] === 0) work();
  });
}
