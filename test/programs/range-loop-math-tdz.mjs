// expect: no race
// idiom: a range-checked loop calling `Math.abs`, where `Math` is the module's own binding, called while that
// binding is in its temporal dead zone over a range of no element: under plain node the call is never evaluated
// and nothing throws; the loop's entry test must not read the binding either (issue 24 §1: a program runs the same).
import { workers } from './sched.mjs';

/** The sum of the magnitudes of a[0..n). */
function total(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += Math.abs(a[j]);
  return s;
}

const { main, joined, shared } = workers(import.meta.url, 1, () => ({
  shared: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (total(shared, 0) !== 0) throw new Error('total of no element');
}
// the module's own Math: in its temporal dead zone until here
// biome-ignore lint/suspicious/noShadowRestrictedNames: the point of the program
const Math = globalThis.Math;
if (!main && total(shared, 2) !== 0) throw new Error(`total ${total(shared, 2)} ${Math.PI}`);
