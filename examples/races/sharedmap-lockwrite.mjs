// The real race of sharedmap 1.2.0 (mmomtchev/SharedMap, index.js), its pattern written out on a map of one
// bucket. Readers (`get`) take the map's shared read lock (a readers count under the SHAREDREAD lock) and the
// bucket's line lock (a bit of `linelocks`, set with `Atomics.or`). `lockWrite()` takes the shared read lock and
// the WRITELOCK, which keeps other writers out but not readers; a `set(k, v, { lockWrite: true })` then skips the
// line lock (`_set(key, value, exclusive = true)`), so its plain stores of the value's UTF-16 units race with a
// concurrent reader's loads of them: the reader can see a value made of both (the library's documented
// read-modify-write loop under lockWrite, with readers in other threads, as in its own test.js).
// Worker 0 holds lockWrite and writes at step 0; worker 1 reads at step 1; worker 0 unlocks at step 2 (the steps of
// the invisible schedule of test/programs/sched.mjs, which adds no happens-before): plain runs read 'NEW-VAL'.
//   node examples/races/sharedmap-lockwrite.mjs     → sharedmap get 'NEW-VAL'
//   goldilocks run --on-race=report examples/races/sharedmap-lockwrite.mjs    → races on the value's units
// The fix: a lockWrite holder's set must still take the line lock (`_set(key, value, opt.lockExclusive)`: only
// lockExclusive keeps readers out), or lockWrite must exclude readers (take READLOCK, as lockExclusive does).
import { workers } from '../../test/programs/sched.mjs';

const LOCK = { READLOCK: 0, SHAREDREAD: 1, WRITELOCK: 2, READERS: 3 };
const OBJSIZE = 8; // UTF-16 units per value, as the map's objSize

const { main, joined, i, step, next, maplock, linelocks, values } = workers(import.meta.url, 2, () => ({
  maplock: new Int32Array(new SharedArrayBuffer(4 * 4)),
  linelocks: new Int32Array(new SharedArrayBuffer(4)),
  values: oldValue(), // valuesData of the one bucket
}));

/** The bucket's value before the workers start: 'old-val', 0-terminated. */
function oldValue() {
  const units = new Uint16Array(new SharedArrayBuffer(2 * OBJSIZE));
  for (let k = 0; k < 'old-val'.length; k++) units[k] = 'old-val'.charCodeAt(k);
  return units;
}

/** SharedMap#_lock / #_unlock: a lock word taken with Atomics.exchange. */
function lock(l) {
  for (;;) {
    const state = Atomics.exchange(maplock, l, 1);
    if (state === 0) return;
    Atomics.wait(maplock, l, state);
  }
}
function unlock(l) {
  Atomics.exchange(maplock, l, 0);
  Atomics.notify(maplock, l);
}
/** SharedMap#_lockSharedRead / #_unlockSharedRead. */
function lockSharedRead() {
  lock(LOCK.SHAREDREAD);
  if (++maplock[LOCK.READERS] === 1) lock(LOCK.READLOCK);
  unlock(LOCK.SHAREDREAD);
}
function unlockSharedRead() {
  lock(LOCK.SHAREDREAD);
  if (--maplock[LOCK.READERS] === 0) unlock(LOCK.READLOCK);
  unlock(LOCK.SHAREDREAD);
}
/** SharedMap#_lockLine / #_unlockLine of bucket 0. */
function lockLine() {
  for (;;) {
    const state = Atomics.or(linelocks, 0, 1);
    if ((state & 1) === 0) return;
    Atomics.wait(linelocks, 0, state);
  }
}
function unlockLine() {
  Atomics.and(linelocks, 0, ~1);
  Atomics.notify(linelocks, 0);
}
/** SharedMap#_set's replacement of an existing key's value; `exclusive` = a lock held (skip the line lock). */
function set(value, exclusive) {
  exclusive || lockLine();
  let k;
  for (k = 0; k < value.length; k++) values[k] = value.charCodeAt(k); // the racy stores
  if (k < OBJSIZE) values[k] = 0;
  exclusive || unlockLine();
}
/**
 * SharedMap#get of the one key: shared read lock, line lock, _decodeValue. (The library decodes with `findIndex`
 * and `String.fromCharCode.apply` over a subarray, bulk reads that an adversarial-memory run leaves to real memory;
 * this loop loads the same units one by one, so that `goldilocks jumble` can choose the value of each.)
 */
function get() {
  lockSharedRead();
  lockLine();
  let value = '';
  for (let k = 0; k < OBJSIZE && values[k] !== 0; k++) value += String.fromCharCode(values[k]); // the racy loads
  unlockLine();
  unlockSharedRead();
  return value;
}

if (main) {
  await joined;
} else if (i === 0) {
  lockSharedRead(); // SharedMap#lockWrite
  lock(LOCK.WRITELOCK);
  step(0);
  set('NEW-VAL', true); // set(key, 'NEW-VAL', { lockWrite: true })
  next();
  step(2);
  unlock(LOCK.WRITELOCK); // SharedMap#unlockWrite
  unlockSharedRead();
  next();
} else {
  step(1);
  const value = get();
  next();
  if (value !== 'old-val' && value !== 'NEW-VAL') throw new Error(`torn value '${value}'`);
  console.log(`sharedmap get '${value}'`);
}
