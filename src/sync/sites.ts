/**
 * The call sites of the primitives' atomic operations, one number each (passed as the last argument of `A.op(…)`,
 * `./observer.ts` `SyncAtomics`): under the live runtime each names its access by the library line it is on, found
 * from a stack the first time the site runs in a thread. Numbered by file; a new call site takes a new member.
 */
export enum Site {
  // primitive.ts
  Clear,
  Wait,
  // mutex.ts
  MutexTake,
  MutexContend,
  MutexRetake,
  MutexHolderTest,
  MutexRelease,
  MutexFree,
  MutexWake,
  // condition.ts
  ConditionSequence,
  ConditionBump,
  ConditionWake,
  // semaphore.ts
  SemaphoreInit,
  SemaphoreRead,
  SemaphoreTake,
  SemaphoreReread,
  SemaphoreReleaseRead,
  SemaphoreAdd,
  SemaphoreWake,
  // barrier.ts
  BarrierInit,
  BarrierParties,
  BarrierGeneration,
  BarrierArrive,
  BarrierReset,
  BarrierAdvance,
  BarrierWake,
  BarrierPoll,
  BarrierSleep,
  // rwlock.ts
  RwReadOwnerTest,
  RwReadSequence,
  RwReadState,
  RwReadTake,
  RwReadUnlockState,
  RwReadRelease,
  RwWriteOwnerTest,
  RwWriteTake,
  RwWriteQueue,
  RwWriteSequence,
  RwWriteState,
  RwWriteRetake,
  RwWriteGiveUp,
  RwWriteOwn,
  RwWriteHolderTest,
  RwWriteDisown,
  RwWriteRelease,
  RwBump,
  RwWake,
}
