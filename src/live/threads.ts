/**
 * Threads as synchronization: `new Worker()` appends a fork cell, written before the worker runs user code (the
 * worker waits for it, {@link awaitFork}); the worker's `'exit'` emitted in its parent a join cell (also what
 * `terminate()`'s promise waits for). The shared buffers and WebAssembly memories of `workerData` reach the worker
 * with their ids through the environment data; its `parentPort` is a user port (`./messages.ts`). The site of each
 * `new Worker(...)` is noted for race reports (`./edges.ts`). Thread flags
 * (FORKED, TERMINATING, DEAD) and parents live in the shared state (`./memory/state.ts`).
 */
import { getEnvironmentData, parentPort, setEnvironmentData, workerData } from 'node:worker_threads';
import type { WorkerHooks } from '../hooks/contract.js';
import { disguise } from '../hooks/native.js';
import { SyncKind } from '../model/sync.js';
import type { Buffers, Memories } from './buffers.js';
import type { Callee, Context } from './context.js';
import { noteSpawn } from './edges.js';
import { type AnyFn, defineHidden } from './intercept/common.js';
import {
  appendCell,
  CTL,
  DEAD,
  ensureThread,
  FORKED,
  rawAtomics,
  type StateViews,
  TERMINATING,
} from './memory/state.js';
import type { Messages } from './messages.js';
import { printErr } from './races.js';

/** Key of the shared buffers of a spawned worker's `workerData` in the environment data. */
const SPAWN_KEY = 'goldilocks.spawn';

/** What a worker receives of its parent with `workerData`: its shared buffers and memories' ids. */
interface Spawn {
  sabs: SharedArrayBuffer[];
  ids: number[];
  memoryIds: number[];
}

/**
 * In a worker, before user code: waits for its fork cell (the parent appends it after its Worker constructor
 * returns; a missing one would make this thread's first accesses race with everything its parent did before
 * forking), then adopts the ids of its `workerData`'s shared buffers and memories.
 */
export function awaitFork(ctx: Context, buffers: Buffers, messages: Messages): void {
  const { s, t, shadow } = ctx;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const f = rawAtomics.load(s.threads, t);
    if (f & FORKED) break;
    if (Date.now() > deadline) {
      printErr(`goldilocks: thread T${t} started without its fork event; its parent may have died\n`);
      break;
    }
    rawAtomics.wait(s.threads, t, f, 100);
  }
  // no cell of this thread yet: its accesses' walks may start at the list's current end (Shadow.pos)
  shadow.pos = rawAtomics.load(s.ctl, CTL.listEnd);
  const spawn = getEnvironmentData(SPAWN_KEY) as Spawn | undefined;
  if (spawn) buffers.adopt(spawn.sabs, spawn.ids);
  if (parentPort) messages.userPorts.add(parentPort);
  messages.received(workerData, spawn?.memoryIds);
}

/** Marks thread `child` and its descendants as terminating (their locks may be taken over, `./memory/state.ts`). */
function markTerminating(s: StateViews, child: number): void {
  const todo = [child];
  while (todo.length) {
    const c = todo.pop()!;
    rawAtomics.or(s.threads, c, TERMINATING);
    for (let i = 0; i < s.parents.length; i++) if (rawAtomics.load(s.parents, i) === c + 1) todo.push(i);
  }
}

/** The hooks run around `new Worker()` in this thread (`../hooks/hooks.ts`, {@link WorkerHooks}). */
export function workerHooks(
  ctx: Context,
  buffers: Buffers,
  memories: Memories,
  messages: Messages,
): WorkerHooks {
  const { s, t } = ctx;
  /** The string id of the user's `new Worker(...)` running now (its caller frame, see `Context.callerSite`). */
  let site = -1;
  return {
    beforeSpawn(options) {
      site = ctx.callerSite(this.beforeSpawn, true);
      buffers.publish(); // its workerData, env, transferList or environment data may hold a private buffer
      const sabs: SharedArrayBuffer[] = [];
      const found: WebAssembly.Memory[] = [];
      messages.collect(options?.workerData, sabs, found);
      setEnvironmentData(SPAWN_KEY, {
        sabs,
        ids: sabs.map(buffers.idOf),
        memoryIds: memories.idsOf(found),
      } as never);
      messages.spawning++;
    },
    spawnFailed() {
      messages.spawning--;
    },
    afterSpawn(worker) {
      messages.spawning--;
      const child = worker.threadId;
      ensureThread(s, child);
      rawAtomics.store(s.parents, child, t + 1);
      noteSpawn(s, child, site);
      ctx.listLocked(() => {
        rawAtomics.add(s.ctl, CTL.forks, 1);
        appendCell(s, SyncKind.Fork, t, 0, child);
      });
      rawAtomics.or(s.threads, child, FORKED);
      rawAtomics.notify(s.threads, child);
      const w = worker as unknown as Record<string, Callee>;
      // the worker's own methods below look like its class's (`disguise`) and are not enumerable: `Object.keys(worker)`
      // and a spread of it show what they show without the runtime
      const own = (name: string, fn: Callee): void => {
        disguise(fn, w[name]);
        defineHidden(w, name, fn as AnyFn);
      };
      const emit = w.emit;
      own('emit', function (this: unknown, event: string, ...args: unknown[]) {
        if (event === 'exit') {
          // the worker is gone, and its own workers with it (a worker that ends stops them, without a terminate()
          // call): a lock one of them was stopped holding is taken over (`./memory/state.ts` lock), not waited for
          markTerminating(s, child);
          ctx.listLocked(() => {
            appendCell(s, SyncKind.Join, t, 0, child);
            rawAtomics.add(s.ctl, CTL.joins, 1); // after the cell: `../alone.ts` finds every join cell appended
          });
          ctx.shadow.joined(child);
          rawAtomics.or(s.threads, child, DEAD);
        }
        return emit.call(this, event, ...args);
      });
      const terminate = w.terminate;
      own('terminate', function (this: unknown, ...args: unknown[]) {
        markTerminating(s, child);
        return terminate.apply(this, args);
      });
      const post = w.postMessage;
      const wrapped = function (this: unknown, value: unknown, ...rest: unknown[]): unknown {
        buffers.publish(); // a send, as every patched postMessage's (./messages.ts)
        return post.call(this, messages.wrap(value, wrapped), ...rest);
      };
      own('postMessage', wrapped);
    },
  };
}
