/**
 * The start of a parser thread (`./parse-worker.ts`, read by `ParserThread` of `./pipeline.ts`, which documents the
 * protocol): the worker, its ports, and what it sends until a reader listens. A module of its own, which imports
 * node:url and node:worker_threads only, so that the executable can start `goldilocks check FILE`'s thread before it
 * loads the check's bundle (`../cli/prestart.ts`): the thread's start-up (a Node thread, its modules, its first batch
 * in code not yet optimized) then overlaps that loading too (issue 24 §3: about 20 ms of a 0.3 s check of the
 * 2M-event realistic trace, `npm run bench:rapid`).
 */
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, type Transferable, Worker } from 'node:worker_threads';
import type { ReadOptions } from './reader.js';

/** Batches sent by the worker and not yet processed, at most (default of `maxInFlight`). */
export const MAX_IN_FLIGHT = 4;

/** What the worker is given (`workerData`). */
export interface ParserData {
  path: string;
  format: ReadOptions['format'];
  batchSize: number | undefined;
  /** Cell 0: batches sent and not yet processed. */
  inFlight: Int32Array;
  maxInFlight: number;
  progress: boolean;
  /** Where the calling thread sends back the storage of each batch it has processed (`BatchShipper`, `./pipeline.ts`). */
  returns: MessagePort;
}

/** What a parser thread reads with: the format, events per batch, whether it reports progress. */
export interface ParserThreadOptions {
  format?: ReadOptions['format'];
  batchSize?: number;
  progress?: boolean;
}

/** One of the worker's events: a message it posted (a `ParserMessage` of `./pipeline.ts`), or its failure. */
export type WorkerEvent = { message: unknown } | { failed: unknown };

/**
 * Starts the worker module `name` of this folder (`parse-worker`, `split-worker`) and calls its `main`: in the build,
 * through `../node/code-cache.ts`'s `runWorker` (its CommonJS copy `code-cache.cjs` where the build wrote one), which
 * compiles the bundle the build writes over `name.js` with V8's code cache (issue 24 §3); when this module runs from
 * its TypeScript source (tests, benchmarks under tsx, whose `--import` registers no loader in worker threads), a stub
 * that registers tsx, then imports `name.ts`.
 */
export function startWorker(
  name: string,
  workerData: unknown,
  options: { stdin?: boolean; transferList?: Transferable[] } = {},
): Worker {
  const { stdin = false, transferList } = options;
  let stub: string;
  if (!import.meta.url.endsWith('.ts')) {
    // the build's CommonJS copy of code-cache.js (scripts/bundle.ts), required: no ES module loader started in the
    // thread; a build of `tsc` alone has only the ES module
    const cjs = JSON.stringify(fileURLToPath(new URL('../node/code-cache.cjs', import.meta.url)));
    const esm = JSON.stringify(new URL('../node/code-cache.js', import.meta.url).href);
    const entry = JSON.stringify(new URL(`./${name}.js`, import.meta.url).href);
    stub = `let c;
try { c = require(${cjs}); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }
(c === undefined ? import(${esm}) : Promise.resolve(c)).then((c) => c.runWorker(${entry}));`;
  } else {
    const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const entry = JSON.stringify(new URL(`./${name}.ts`, import.meta.url).href);
    stub = `import(${tsx}).then((api) => { api.register(); return import(${entry}); }).then((m) => m.main());`;
  }
  return new Worker(stub, { eval: true, workerData, stdin, transferList });
}

/**
 * A parse worker reading `path` (`-`: this thread's stdin, piped to it), started at construction; what it sends is
 * kept in a queue until {@link listen} (bounded: the worker waits while `maxInFlight` batches are unprocessed).
 */
export class StartedParser {
  readonly worker: Worker;
  /** Where the worker's batches' storage is sent back. */
  readonly returns: MessagePort;
  /** Cell 0: batches sent and not yet processed ({@link ParserData}). */
  readonly inFlight = new Int32Array(new SharedArrayBuffer(4));
  private readonly stdin: boolean;
  private queue: WorkerEvent[] | undefined = [];
  private handle: (e: WorkerEvent) => void = (e) => this.queue?.push(e);

  /**
   * @param maxInFlight batches parsed ahead of the reader at most (memory: that many batches).
   */
  constructor(
    readonly path: string,
    options: ParserThreadOptions = {},
    maxInFlight = MAX_IN_FLIGHT,
  ) {
    const { port1: returns, port2 } = new MessageChannel();
    this.returns = returns;
    const data: ParserData = {
      path,
      format: options.format,
      batchSize: options.batchSize,
      inFlight: this.inFlight,
      maxInFlight,
      progress: options.progress === true,
      returns: port2,
    };
    this.stdin = path === '-';
    this.worker = startWorker('parse-worker', data, { stdin: this.stdin, transferList: [port2] });
    if (this.stdin && this.worker.stdin !== null) process.stdin.pipe(this.worker.stdin);
    this.worker.on('message', (message: unknown) => this.handle({ message }));
    this.worker.on('error', (failed) => this.handle({ failed }));
    this.worker.on('exit', (code) =>
      this.handle({ failed: new Error(`the parser thread exited (code ${code}) before the end`) }),
    );
  }

  /** Hands the worker's events to `handle`: first those kept until now, in order, then each as it comes. */
  listen(handle: (e: WorkerEvent) => void): void {
    const queued = this.queue ?? [];
    this.queue = undefined;
    this.handle = handle;
    for (const e of queued) handle(e);
  }

  /** Ends the thread (and the piping of stdin to it); what it sent and was not handled is dropped. */
  stop(): void {
    this.handle = () => {};
    this.queue = undefined;
    if (this.stdin) {
      process.stdin.unpipe();
      process.stdin.pause();
    }
    void this.worker.terminate();
    this.returns.close();
  }
}
