// expect: no race
// idiom: a thread reads, then writes, every element of a view, so that the same-epoch filter covers the whole view
// for reads and then for writes; its accesses after that with keys that are strings, out of bounds, negative,
// fractional or not indices at all behave as under plain node; the main thread reads the view after the join.
import { workers } from './sched.mjs';

function check(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: ${String(actual)}, expected ${String(expected)}`);
}

const { main, joined, data } = workers(import.meta.url, 1, () => ({ data: new SharedArrayBuffer(40) }));
const v = new Int16Array(data, 6, 15); // 30 bytes from byte 6: starts and ends inside a word
if (main) {
  await joined;
  check(v[2], 41, 'main: v[2]');
  check(v[14], 7, 'main: v[14]');
} else {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j];
  for (let j = 0; j < v.length; j++) s += v[j]; // all covered now
  check(s, 0, 'sum');
  check(v['3'], 0, "v['3']");
  check(v[15], undefined, 'v[15]');
  check(v[-1], undefined, 'v[-1]');
  check(v[1.5], undefined, 'v[1.5]');
  check(v['01'], undefined, "v['01']");
  check(v.length, 15, 'v.length');
  for (let j = 0; j < v.length; j++) v[j] = j;
  for (let j = 0; j < v.length; j++) v[j] = 2 * j; // all covered for writes now
  v['2'] = 41;
  v[15] = 5;
  v[-1] = 5;
  v[1.5] = 5;
  v[14] = 7;
  check(v[15], undefined, 'v[15] after a write');
  check(v[1.5], undefined, 'v[1.5] after a write');
  check(Object.keys(v).length, 15, 'keys');
}
