/**
 * `goldilocks/sync`: `Mutex`, `Condition`, `Semaphore`, `Barrier` and `ReadWriteLock` over `SharedArrayBuffer`,
 * built on `Atomics` (issue 3 §3). They work in any Node program; under the Goldilocks runtime they also report
 * their synchronization through `setSyncObserver` (see `observer.ts`), so the detector sees the locks and the
 * happens-before edges they create.
 */
export { Barrier } from './barrier.js';
export { Condition } from './condition.js';
export { Mutex } from './mutex.js';
export { type SyncKind, type SyncObserver, type SyncRef, setSyncObserver } from './observer.js';
export type { Placement, SyncHandle, SyncPrimitive } from './primitive.js';
export { ReadWriteLock } from './rwlock.js';
export { Semaphore } from './semaphore.js';
