// The transactional Multiset of Goldilocks (PLDI'07 §6.1, Table 3; after the benchmark of Flanagan & Qadeer's
// atomizer): worker threads share a multiset of small integers, an array of `--capacity` slots (default 10, the
// paper's size), and perform insertions, deletions and queries, each in `goldilocks/stm` transactions:
// - Insert(a): first allocates a slot for each element of `a`, one transaction per slot (FREE → RESERVED); when all
//   are allocated, one transaction makes the elements visible (value, RESERVED → VISIBLE); when an allocation fails
//   (every slot taken: contention), one transaction frees the slots it reserved (a rollback);
// - Delete(x): one transaction frees a visible slot holding x; Query(x): one read-only transaction counts them.
// The arrays given to Insert come from a factory shared by the threads, used outside transactions: a counter under a
// `goldilocks/sync` Mutex and the array written with plain stores into the calling worker's slot of a shared buffer
// (transactions mixed with other synchronization, as in the paper).
//
//   node bench/stm/multiset.mjs [--workers N] [--ops N] [--capacity N]
//
// `goldilocks/stm` and `goldilocks/sync` are loaded from GOLDILOCKS_BENCH_DIST (a `dist/` folder; default this
// checkout's), so that a run under another build's runtime (bench/stm.ts --base) uses that build's STM, whose
// commits that runtime observes. Prints one JSON line: {"bench":"stm-multiset","workers","ops","capacity","ms"
// (from the start signal, given once every worker has loaded and waits for it, to the last worker's end of its
// operations: the operations only, not the workers' start-up), "accesses" (shared accesses made: tx.read and tx.write in every
// attempt, plain accesses of the factory's arrays), "transactions" (atomic calls), "commits" (those that wrote: a
// read-only TL2 transaction has no commit step), "aborts" (attempts run again), "visible" (elements at the end)}.
// Exits 1 when the multiset is inconsistent at the end (a slot left RESERVED, or a value out of range).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const DIST = process.env.GOLDILOCKS_BENCH_DIST ?? path.join(import.meta.dirname, '..', '..', 'dist');
const { STM } = await import(pathToFileURL(path.join(DIST, 'stm', 'index.js')).href);
const { Mutex } = await import(pathToFileURL(path.join(DIST, 'sync', 'index.js')).href);

const FREE = 0;
const RESERVED = 1;
const VISIBLE = 2;
/** The largest array given to Insert, and the values' range [0, VALUES). */
const MAX_LENGTH = 3;
const VALUES = 4;
/** Per worker in `counts`: accesses, transactions, commits, attempts. */
const COUNTS = 4;

if (isMainThread) {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '2' },
      ops: { type: 'string', default: '20000' },
      capacity: { type: 'string', default: '10' },
    },
  });
  const workers = Number(values.workers);
  const ops = Number(values.ops);
  const capacity = Number(values.capacity);
  for (const [name, n] of [
    ['workers', workers],
    ['ops', ops],
    ['capacity', capacity],
  ])
    if (!Number.isInteger(n) || n < 1) {
      process.stderr.write(`multiset: --${name} must be a positive integer\n`);
      process.exit(2);
    }
  const data = {
    stm: new STM().handle,
    factory: new Mutex('factory').handle,
    seed: new Int32Array(new SharedArrayBuffer(4)),
    args: new Int32Array(new SharedArrayBuffer(4 * (MAX_LENGTH + 1) * workers)),
    state: new Int32Array(new SharedArrayBuffer(4 * capacity)),
    value: new Int32Array(new SharedArrayBuffer(4 * capacity)),
    counts: new Float64Array(new SharedArrayBuffer(8 * COUNTS * workers)),
    /** [workers ready, go]: the start signal. */
    start: new Int32Array(new SharedArrayBuffer(8)),
    /** Per worker: when it ended its operations (ms since the epoch: `performance.timeOrigin + now()`). */
    ends: new Float64Array(new SharedArrayBuffer(8 * workers)),
    ops,
  };
  let t0 = 0;
  const go = async () => {
    for (let n = Atomics.load(data.start, 0); n < workers; n = Atomics.load(data.start, 0))
      await Atomics.waitAsync(data.start, 0, n).value;
    t0 = performance.timeOrigin + performance.now();
    Atomics.store(data.start, 1, 1);
    Atomics.notify(data.start, 1);
  };
  await Promise.all([
    go(),
    ...Array.from({ length: workers }, (_, id) => {
      const w = new Worker(new URL(import.meta.url), { workerData: { ...data, id } });
      return new Promise((resolve, reject) => {
        w.on('error', reject);
        w.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`worker ${id} exited with ${code}`)),
        );
      });
    }),
  ]);
  const ms = Math.max(...data.ends) - t0;
  const sum = (k) => {
    let n = 0;
    for (let id = 0; id < workers; id++) n += data.counts[id * COUNTS + k];
    return n;
  };
  let visible = 0;
  for (let s = 0; s < capacity; s++) {
    if (data.state[s] === VISIBLE) visible++;
    if (
      data.state[s] === RESERVED ||
      data.state[s] > VISIBLE ||
      data.value[s] < 0 ||
      data.value[s] >= VALUES
    ) {
      process.stderr.write(
        `multiset: inconsistent slot ${s}: state ${data.state[s]}, value ${data.value[s]}\n`,
      );
      process.exitCode = 1;
    }
  }
  const line = {
    bench: 'stm-multiset',
    workers,
    ops,
    capacity,
    ms: Math.round(ms * 10) / 10,
    accesses: sum(0),
    transactions: sum(1),
    commits: sum(2),
    aborts: sum(3) - sum(1),
    visible,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
} else {
  const { id, ops, seed, args, state, value, counts } = workerData;
  const stm = STM.from(workerData.stm);
  const factory = Mutex.from(workerData.factory);
  const capacity = state.length;
  const mine = id * (MAX_LENGTH + 1); // this worker's array in `args`: its length, then its elements
  let accesses = 0;
  let transactions = 0;
  let commits = 0;
  let attempts = 0;
  let wrote = false;
  const read = (tx, view, i) => {
    accesses++;
    return tx.read(view, i);
  };
  const write = (tx, view, i, v) => {
    accesses++;
    wrote = true;
    tx.write(view, i, v);
  };
  /** `stm.atomic(fn)`, counted. */
  const atomic = (fn) => {
    transactions++;
    const r = stm.atomic((tx) => {
      attempts++;
      wrote = false;
      return fn(tx);
    });
    if (wrote) commits++;
    return r;
  };
  /** The factory: the next array, written into this worker's slot of `args` (plain accesses). */
  const makeArray = () => {
    const n = factory.withLock(() => {
      const k = seed[0];
      seed[0] = k + 1;
      accesses += 2;
      return k;
    });
    const length = 1 + (n % MAX_LENGTH);
    args[mine] = length;
    for (let j = 0; j < length; j++) args[mine + 1 + j] = (n * 7 + j) % VALUES;
    accesses += 1 + length;
  };
  const allocate = (tx) => {
    for (let s = 0; s < capacity; s++)
      if (read(tx, state, s) === FREE) {
        write(tx, state, s, RESERVED);
        return s;
      }
    return -1;
  };
  const slots = [];
  const elements = [];
  const insert = () => {
    makeArray();
    const length = args[mine];
    accesses++;
    slots.length = 0;
    elements.length = 0;
    for (let j = 0; j < length; j++) {
      elements.push(args[mine + 1 + j]);
      accesses++;
      const s = atomic(allocate);
      if (s < 0) {
        atomic((tx) => {
          for (const r of slots) write(tx, state, r, FREE);
        });
        return;
      }
      slots.push(s);
    }
    atomic((tx) => {
      for (let j = 0; j < slots.length; j++) {
        write(tx, value, slots[j], elements[j]);
        write(tx, state, slots[j], VISIBLE);
      }
    });
  };
  const remove = (x) =>
    atomic((tx) => {
      for (let s = 0; s < capacity; s++)
        if (read(tx, state, s) === VISIBLE && read(tx, value, s) === x) {
          write(tx, state, s, FREE);
          return true;
        }
      return false;
    });
  const query = (x) =>
    atomic((tx) => {
      let n = 0;
      for (let s = 0; s < capacity; s++) if (read(tx, state, s) === VISIBLE && read(tx, value, s) === x) n++;
      return n;
    });
  let r = 0x9e3779b9 ^ (id * 0x85ebca6b);
  const random = () => {
    r ^= r << 13;
    r ^= r >>> 17;
    r ^= r << 5;
    return (r >>> 0) / 2 ** 32;
  };
  Atomics.add(workerData.start, 0, 1);
  Atomics.notify(workerData.start, 0);
  while (Atomics.load(workerData.start, 1) === 0) Atomics.wait(workerData.start, 1, 0);
  for (let k = 0; k < ops; k++) {
    const p = random();
    const x = Math.floor(random() * VALUES);
    if (p < 0.5) insert();
    else if (p < 0.8) remove(x);
    else query(x);
  }
  workerData.ends[id] = performance.timeOrigin + performance.now();
  const at = id * COUNTS;
  counts[at] = accesses;
  counts[at + 1] = transactions;
  counts[at + 2] = commits;
  counts[at + 3] = attempts;
}
