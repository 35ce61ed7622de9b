/**
 * Helpers shared by the kernels of bench/kernels/ (JavaScript worker versions of the Java Grande Forum
 * benchmarks): command-line arguments, shared allocation, worker spawning and joining, the barrier, a seeded
 * random generator, the result line.
 *
 * Every kernel is one file that is both the main program and the worker (`isMainThread`): the main thread
 * allocates the data in SharedArrayBuffers, starts the workers with `startWorkers`, waits for all of them to
 * exit, then prints `printResult`'s JSON line. Workers compute in the shared typed arrays and separate their
 * phases with `Barrier.wait()`; the barrier is the only synchronization besides the start (workerData) and the
 * join ('exit').
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

/**
 * The sizes every kernel accepts: tiny (tests), small (~0.2-0.5 s plain), medium (~1-3 s plain), and large: at
 * least 512 MiB of shared data (issue 24 §1 "Scale"). At large, sor and crypt do work linear in their data and
 * simply grow; the others' work grows faster than their data (lufact n³/3, moldyn per particle a loop over its
 * box, series and montecarlo per coefficient or path a loop of steps, raytracer per pixel a loop over the scene),
 * so each bounds its work the way its problem allows — lufact the first pivot columns, moldyn an ensemble of small
 * boxes, series coarse integrals, montecarlo every path kept, raytracer a smaller scene — for a few seconds to
 * ~20 s plain. Each kernel's SIZES docstring says how and why.
 */
export const SIZES = ['tiny', 'small', 'medium', 'large'];

/**
 * Parses `--workers N --size S [--verify | --no-verify]`, S one of {@link SIZES}. The check against a sequential
 * computation runs by default on tiny and small, not on medium and large.
 * @returns {{workers: number, size: string, verify: boolean}}
 */
export function parseKernelArgs(kernel) {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '4' },
      size: { type: 'string', default: 'small' },
      verify: { type: 'boolean', default: false },
      'no-verify': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      `usage: node bench/kernels/${kernel}.mjs [--workers N] [--size ${SIZES.join('|')}] [--verify|--no-verify]\n`,
    );
    process.exit(0);
  }
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1)
    usage(kernel, `--workers: not a positive integer: ${values.workers}`);
  if (!SIZES.includes(values.size)) usage(kernel, `--size: one of ${SIZES.join(', ')}, not ${values.size}`);
  const verify =
    values.verify || (!values['no-verify'] && values.size !== 'medium' && values.size !== 'large');
  return { workers, size: values.size, verify };
}

function usage(kernel, message) {
  process.stderr.write(`${kernel}: ${message}\n`);
  process.exit(2);
}

let sharedBytes = 0;

/** A typed array of `length` elements over a new SharedArrayBuffer (counted in `sharedByteCount`). */
export function shared(Type, length) {
  sharedBytes += Type.BYTES_PER_ELEMENT * length;
  return new Type(new SharedArrayBuffer(Type.BYTES_PER_ELEMENT * length));
}

/** Bytes allocated so far with `shared` in this thread (the kernel's data; the barrier is not counted). */
export function sharedByteCount() {
  return sharedBytes;
}

/** [lo, hi) of part `id` of `n` when `count` items are cut into `parts` contiguous blocks of near-equal size. */
export function block(count, parts, id) {
  const q = Math.floor(count / parts);
  const r = count % parts;
  const lo = id * q + Math.min(id, r);
  return [lo, lo + q + (id < r ? 1 : 0)];
}

/**
 * A reusable barrier for `parties` threads over a shared Int32Array [count, generation], used only through
 * Atomics. Happens-before: every thread's add to `count` reads the previous one's, the last arriver's add to
 * `generation` is read by each waiter's load that lets it leave, so everything a thread did before `wait()`
 * happens-before everything every thread does after it. Waiters block in `Atomics.wait` without spinning (a
 * spin would append an atomic read per turn to a detector's synchronization list).
 */
export class Barrier {
  /** The shared state of a new barrier, to pass to the workers (in workerData). */
  static state() {
    return new Int32Array(new SharedArrayBuffer(8));
  }

  constructor(state, parties) {
    this.s = state;
    this.parties = parties;
  }

  wait() {
    const s = this.s;
    const gen = Atomics.load(s, 1);
    if (Atomics.add(s, 0, 1) === this.parties - 1) {
      Atomics.store(s, 0, 0);
      Atomics.add(s, 1, 1);
      Atomics.notify(s, 1);
    } else {
      while (Atomics.load(s, 1) === gen) Atomics.wait(s, 1, gen);
    }
  }
}

/**
 * Starts `workers` workers running `url` (the kernel's own file) with workerData `{ ...data, id, workers,
 * barrier }`, and waits until all of them have exited.
 * @returns the milliseconds from the first start to the last exit.
 * @throws when a worker fails (an uncaught error or a non-zero exit code); the others are terminated then, since
 *   they would wait forever at the barrier.
 */
export async function runWorkers(url, workers, data) {
  const barrier = Barrier.state();
  const t0 = performance.now();
  const all = [];
  for (let id = 0; id < workers; id++)
    all.push(new Worker(url, { workerData: { ...data, id, workers, barrier } }));
  const exits = all.map(
    (w, id) =>
      new Promise((resolve, reject) => {
        let error;
        w.on('error', (e) => {
          error = e;
        });
        w.on('exit', (code) => {
          if (code === 0 && error === undefined) resolve();
          else
            reject(
              new Error(`worker ${id} failed (exit code ${code})${error ? `: ${error.stack ?? error}` : ''}`),
            );
        });
      }),
  );
  try {
    await Promise.all(exits);
  } catch (e) {
    await Promise.allSettled(all.map((w) => w.terminate()));
    throw e;
  }
  return performance.now() - t0;
}

/** The barrier of a worker (from its workerData). */
export function workerBarrier(data) {
  return new Barrier(data.barrier, data.workers);
}

/**
 * A seeded generator of doubles in [0, 1) (mulberry32), the same sequence on every run and in every thread.
 * @returns {() => number}
 */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Prints the kernel's result line `{"kernel","workers","size","checksum","ms","sharedBytes","verified"}` (ms: from
 * starting the workers to the last one's exit), or, when `mismatch` is a string, prints it and exits with code 1.
 */
export function printResult(kernel, args, checksum, ms, mismatch) {
  if (typeof mismatch === 'string') {
    process.stderr.write(`${kernel}: CHECK FAILED (${args.workers} workers, ${args.size}): ${mismatch}\n`);
    process.exitCode = 1;
    return;
  }
  const line = {
    kernel,
    workers: args.workers,
    size: args.size,
    checksum,
    ms: Math.round(ms * 10) / 10,
    sharedBytes: sharedByteCount(),
    verified: args.verify,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * The first index at which two arrays differ, as a message, or undefined if they are equal element by element
 * (exact comparison: the parallel and sequential computations do the same operations in the same order).
 */
export function compareArrays(name, got, want) {
  if (got.length !== want.length) return `${name}: length ${got.length}, expected ${want.length}`;
  for (let i = 0; i < want.length; i++)
    if (got[i] !== want[i] && !(Number.isNaN(got[i]) && Number.isNaN(want[i])))
      return `${name}[${i}] = ${got[i]}, expected ${want[i]}`;
  return undefined;
}

/** Runs `main` on the main thread and `worker(workerData)` in a worker; a failure of main exits with code 1. */
export function kernelMain(isMain, main, worker, data) {
  if (!isMain) {
    worker(data);
    return;
  }
  main().catch((e) => {
    process.stderr.write(`${e?.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
