/**
 * Shared buffers in worker environment data (`setEnvironmentData`, Node worker_threads): a value set in a thread is
 * cloned into every worker it starts later, as one structured clone of all its environment data (Node's
 * `worker.setEnvironmentData`), so a SharedArrayBuffer there is a new object in the worker over the same memory. The
 * setter's thread lists, under its own key, each key's buffers with their ids; a worker adopts those ids when its
 * runtime starts (the listed objects are the very ones its `getEnvironmentData` returns: the same clone), so that
 * its accesses are checked as accesses to the sender's buffer. A set is also a send: it makes the thread's private
 * buffers public (`./buffers.ts` {@link Buffers.publish}; the `new Worker` that hands the data over publishes too).
 */
import { createRequire } from 'node:module';
import type { Buffers } from './buffers.js';
import type { Messages } from './messages.js';

const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
/** The environment-data key of the buffer list: `[key, { sabs, ids }]` per key whose value holds shared buffers. */
const ENV_IDS = 'goldilocks.environment';

interface Listed {
  sabs: SharedArrayBuffer[];
  ids: number[];
}

/** Adopts the ids of the buffers in this thread's environment data, and patches `setEnvironmentData` (see above). */
export function observeEnvironment(buffers: Buffers, messages: Messages): void {
  const inherited = (threads.getEnvironmentData(ENV_IDS) ?? []) as [unknown, Listed][];
  for (const [, { sabs, ids }] of inherited) buffers.adopt(sabs, ids);
  const listed = new Map<unknown, Listed>(inherited);
  const set = threads.setEnvironmentData;
  threads.setEnvironmentData = function setEnvironmentData(key, value) {
    buffers.publish();
    set(key, value);
    const sabs: SharedArrayBuffer[] = [];
    messages.collect(value, sabs);
    if (sabs.length === 0 && !listed.has(key)) return;
    if (sabs.length === 0) listed.delete(key);
    else listed.set(key, { sabs, ids: sabs.map(buffers.idOf) });
    set(ENV_IDS, [...listed] as never);
  };
}
