/**
 * The invisible deterministic scheduler of the test programs, and their worker spawn/join helpers (one module,
 * imported by every program; not a program itself: it has no `// expect:` header). Most programs need only
 * {@link workers}: the main thread sets up shared data and spawns workers running the same file, then joins them;
 * those that message their workers, terminate them, nest them or run eval workers use {@link schedule},
 * {@link spawn} and {@link join} directly.
 *
 * A schedule is a step counter in its own SharedArrayBuffer. `step(n)` blocks until the counter equals n,
 * `next()` increments it and wakes the sleepers, so "worker A does X at step 0, worker B does Y at step 1" fixes
 * the interleaving. Like ThreadSanitizer's invisible barrier, it must give the detector no happens-before edge:
 * every operation on its buffer goes through the ORIGINAL Atomics functions, which the Goldilocks runtime
 * publishes at `globalThis[Symbol.for('goldilocks.rawAtomics')]` (plain `Atomics` under plain node), and never
 * through element syntax (`w[i]`), which is instrumented.
 *
 * Words: [0] the step counter, [1] abort flag (set when a thread fails, so the others stop waiting).
 */
import { readFileSync } from 'node:fs';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;
const STEP = 0;
const ABORT = 1;
/** No single step waits longer than this (a failed thread must not hang the others forever). */
const STEP_TIMEOUT_MS = 20_000;

/**
 * The schedule over `buffer` (a new one when omitted: the main thread creates it, passes `buffer` to workers in
 * workerData, and each worker calls `schedule(workerData.sched)`).
 */
export function schedule(buffer = new SharedArrayBuffer(8)) {
  const w = new Int32Array(buffer);
  const abort = () => {
    raw.store(w, ABORT, 1);
    raw.notify(w, STEP);
  };
  // A worker dying of an exception (e.g. a DataRaceException under --on-race=throw) releases the others.
  if (!isMainThread) process.on('uncaughtExceptionMonitor', abort);
  /** Blocks until the step counter is `n`. @throws when it has passed n, on abort, or after the timeout. */
  const step = (n) => {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      if (raw.load(w, ABORT) !== 0) throw new Error(`schedule aborted while waiting for step ${n}`);
      const c = raw.load(w, STEP);
      if (c === n) return;
      if (c > n) throw new Error(`step ${n} already passed (now ${c})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for step ${n} (stuck at ${c})`);
      raw.wait(w, STEP, c, left);
    }
  };
  /** Ends the current step: increments the counter and wakes every thread waiting in `step`. */
  const next = () => {
    raw.add(w, STEP, 1);
    raw.notify(w, STEP);
  };
  /** Runs `fn` as step `n`: `step(n)`, `fn()`, `next()`. @returns what `fn` returns. */
  const at = (n, fn) => {
    step(n);
    const r = fn();
    next();
    return r;
  };
  /** Sleeps `ms` milliseconds without touching anything the detector sees. */
  const sleep = (ms) => raw.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return { buffer, step, next, at, sleep, abort };
}

/** Starts a worker running `file` (the program's `import.meta.url`) with `workerData` = `data`. */
export function spawn(file, data, options = {}) {
  return new Worker(new URL(file), { ...options, workerData: data });
}

/**
 * Starts an eval worker running `code`, a script written verbatim in the program `file` (its `import.meta.url`), with
 * `workerData` = `data`: the script is padded with newlines so that its lines ([worker eval]:line:col) are the
 * program's, where its `// race` markers are.
 */
export function spawnEval(file, code, data) {
  const source = readFileSync(new URL(file), 'utf8');
  const padding = '\n'.repeat(source.slice(0, source.indexOf(code)).split('\n').length - 1);
  return new Worker(padding + code, { eval: true, workerData: data });
}

/**
 * Joins `worker`: resolves when its 'exit' event fires with code 0 (the worker exit → 'exit' edge); rejects with
 * the worker's error, or with its exit code, otherwise.
 */
export function join(worker) {
  return new Promise((resolve, reject) => {
    let error;
    worker.on('error', (e) => {
      error = e;
    });
    worker.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(error ?? new Error(`worker exited with code ${code}`));
    });
  });
}

/** The names {@link workers} gives its own values; the data of `setup` may not use them. */
const RESERVED = ['main', 'joined', 'i', 'who', 'at', 'step', 'next', 'sleep', 'sched'];

/**
 * The preamble of a program whose workers all run its own file: called at the top level of the program in every
 * thread, it returns what that thread needs.
 *
 * - In the main thread: calls `setup()` (which makes the shared data: an object of values that can be cloned,
 *   such as typed arrays over SharedArrayBuffers), then spawns one worker per party with {@link spawn} — the fork
 *   edge, after everything `setup` did — and joins them all with {@link join} (their 'exit' events: the join
 *   edges). Returns `{ main: true, joined, at, step, next, sleep, ...data }`: `joined` a Promise resolving when
 *   every worker has exited with code 0 (rejecting with a worker's error otherwise); `await joined` before
 *   reading what the workers wrote. Nothing else orders the main thread with the workers: its code between
 *   `workers()` and `await joined` runs concurrently with them (ordered only by the invisible schedule).
 * - In a worker: returns `{ main: false, i, who, at, step, next, sleep, ...data }`: `i` its index (0 ..
 *   parties − 1), `who` its name (`parties[i]`, or `i` when `parties` is a count), `data` the worker's clone of
 *   `setup()`'s object (workerData), and the schedule's functions ({@link schedule}).
 *
 * Adds no synchronization of its own: the schedule uses the original Atomics, and the only happens-before edges
 * are `new Worker()` (fork) and each worker's 'exit' (join), as when the program spawns and joins by hand.
 *
 * @param {string} file the program's `import.meta.url`.
 * @param {number | string[]} parties how many workers (named 0, 1, ...), or their names.
 * @param {() => object} setup run in the main thread only, before the first worker is spawned.
 * @throws {Error} in the main thread, when `setup`'s object uses a name of {@link RESERVED}.
 */
export function workers(file, parties, setup) {
  if (!isMainThread) {
    const { sched, i, who, ...data } = workerData;
    const { at, step, next, sleep } = schedule(sched);
    return { main: false, i, who, at, step, next, sleep, ...data };
  }
  const { buffer, at, step, next, sleep } = schedule();
  const data = setup();
  const clash = RESERVED.filter((k) => Object.hasOwn(data, k));
  if (clash.length > 0) throw new Error(`workers(): setup() returned reserved names ${clash.join(', ')}`);
  const names = typeof parties === 'number' ? Array.from({ length: parties }, (_, i) => i) : parties;
  const joined = Promise.all(names.map((who, i) => join(spawn(file, { sched: buffer, i, who, ...data }))));
  return { main: true, joined, at, step, next, sleep, ...data };
}

/**
 * {@link workers} over one shared `Float64Array` of `length` elements, `shared` (zeros): the range-loop programs'
 * set-up.
 */
export function float64Workers(file, parties, length) {
  return workers(file, parties, () => ({ shared: new Float64Array(new SharedArrayBuffer(8 * length)) }));
}

/**
 * The elements of the Float64Array `a`, read with the original Atomics (invisible to the detector): what a racing
 * loop left when it threw.
 *
 * @param {Float64Array} a the view read.
 * @returns {number[]} its elements.
 */
export function peekFloat64(a) {
  const words = new Int32Array(a.buffer, a.byteOffset, 2 * a.length);
  const copy = new Int32Array(words.length);
  for (let k = 0; k < words.length; k++) copy[k] = raw.load(words, k);
  return [...new Float64Array(copy.buffer)];
}

/**
 * Runs `f`, a racy loop: under `--on-race=throw` it stops with a DataRaceException at the racing access, after
 * which `check` tests what ran before it and the program prints `DataRaceException at ${what}`; under plain node, or
 * when races are only reported, it runs to its end.
 *
 * @param {() => unknown} f the racy loop.
 * @param {() => void} check throws when the accesses before the race did not all run.
 * @param {string} what the racing access, as printed.
 * @throws {Error} an error of `f` that is not a DataRaceException, or of `check`.
 */
export function stopsAtRace(f, check, what) {
  try {
    f();
  } catch (e) {
    if (e?.name !== 'DataRaceException') throw e;
    check();
    console.log(`DataRaceException at ${what}`);
  }
}

/**
 * The schedule of the racing range-loop programs that stop at element 40 (range-loop-member-views-race.mjs and its
 * kin): worker 0 runs `write`, the program's racy write of element 40 (its own `// race` line), as step 0; worker 1,
 * as step 1, runs `sumRow`, a range-checked loop over the row that holds element 40, which must stop there
 * ({@link stopsAtRace}) after the elements before it were summed: `summed()` then is `expected`; the main thread waits
 * for the joins.
 *
 * @param {{ main: boolean, joined: Promise<unknown>, i: number, at: (n: number, fn: () => unknown) => unknown }} w
 *   the program's {@link workers}.
 * @param {() => void} write worker 0's racy write.
 * @param {() => unknown} sumRow worker 1's racy loop.
 * @param {() => number} summed the sum the loop accumulated.
 * @param {number} expected that sum when the loop stopped at element 40.
 * @returns {Promise<unknown> | undefined} what the program awaits: the joins on the main thread.
 * @throws {Error} when the loop stopped elsewhere, or an error of `sumRow` that is not a DataRaceException.
 */
export function stopsAtElement40({ main, joined, i, at }, write, sumRow, summed, expected) {
  if (main) return joined;
  if (i === 0) at(0, write);
  else
    at(1, () =>
      stopsAtRace(
        sumRow,
        () => {
          if (summed() !== expected) throw new Error(`thrown before element 39 was summed: ${summed()}`);
        },
        'element 40',
      ),
    );
  return undefined;
}

/**
 * Runs `f`, which must throw an instance of `type` (the programs whose loop is expected to stop in an exception).
 *
 * @param {() => unknown} f the code expected to throw.
 * @param {Function} type the expected error class.
 * @returns {Error} the error `f` threw.
 * @throws {Error} when `f` returns normally; rethrows an error that is not a `type`.
 */
export function throwsOf(f, type) {
  try {
    f();
  } catch (e) {
    if (!(e instanceof type)) throw e;
    return e;
  }
  throw new Error(`no ${type.name}`);
}

/**
 * {@link workers} with 2 workers over `a`, a `Float64Array` of 8 elements (zeros), and `f`, an `Int32Array` of one
 * element (a flag): the set-up of the programs whose worker 1 releases the flag from an opaque operation inside a
 * covered loop (range-loop-opaque-*.mjs). In the main thread, `joined` also prints `a` once the workers have exited.
 *
 * @param {string} file the program's `import.meta.url`.
 */
export function flagWorkers(file) {
  const { joined, data, flag, ...rest } = workers(file, 2, () => ({
    data: new SharedArrayBuffer(64),
    flag: new SharedArrayBuffer(4),
  }));
  const a = new Float64Array(data);
  return {
    ...rest,
    joined: joined?.then(() => console.log(`elements after the joins: ${a.join(',')}`)),
    a,
    f: new Int32Array(flag),
  };
}

/**
 * Runs `access`, an access expected to race: under `--on-race=throw` the `DataRaceException` it throws is caught and
 * `thrown in <who>` printed (as the programs' expected output says); any other exception is rethrown. The racy access
 * itself stays in the program's own file (its `// race` line).
 *
 * @param {() => unknown} access the racing access.
 * @param {string} who the thread's name in the printed line.
 */
export function raceCaught(access, who) {
  try {
    access();
  } catch (e) {
    if (e?.name !== 'DataRaceException') throw e;
    console.log(`thrown in ${who}`);
  }
}

/**
 * Runs `loop`, a racing loop's call expected to throw `DataRaceException` at its racing element (under
 * --on-race=throw): then `read()` (what the loop left, read invisibly, e.g. {@link peekFloat64}) must be `expected`,
 * and `message` is printed. Other errors propagate; a loop that does not throw prints nothing.
 *
 * @param {() => void} loop the racing loop's call.
 * @param {() => string} read what the shared memory holds after it threw, as text.
 * @param {string} expected what `read()` must give.
 * @param {string} message printed once checked.
 * @throws {Error} when the memory is not `expected` (the loop wrote past its racing element, or not up to it).
 */
export function thrownLeaving(loop, read, expected, message) {
  try {
    loop();
  } catch (e) {
    if (e?.name !== 'DataRaceException') throw e;
    const seen = read();
    if (seen !== expected) throw new Error(`thrown with the elements at ${seen}`);
    console.log(message);
  }
}

/**
 * The two steps of a program over one shared `Float64Array` of `length` elements ({@link float64Workers}): worker 0
 * runs `first(shared)` at step 0, then worker 1 runs `second(shared)` at step 1, unordered with it (the schedule adds
 * no happens-before edge); the main thread awaits the joins. Called at the top level of the program in every thread.
 *
 * @param {string} file the program's `import.meta.url`.
 * @param {number} length the elements of `shared`.
 * @param {(shared: Float64Array) => void} first worker 0's step.
 * @param {(shared: Float64Array) => void} second worker 1's step.
 * @returns {Promise<void>} resolved once the workers have exited (main thread) or the thread's step ran (a worker).
 */
export async function twoSteps(file, length, first, second) {
  const { main, joined, i, at, shared } = float64Workers(file, 2, length);
  if (main) await joined;
  else at(i, () => (i === 0 ? first : second)(shared));
}
