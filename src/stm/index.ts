/**
 * `goldilocks/stm`: a software transactional memory over shared typed arrays (issue 23 §1), TL2 (Dice, Shalev,
 * Shavit, *Transactional Locking II*, DISC 2006). It works in any Node program; see `STM`. Under the Goldilocks
 * runtime it also reports its commits through `setStmObserver` (see `observer.ts`): loaded in a thread, it hands the
 * runtime of that thread its observer setter and `STM#atomic` (`../hooks/libraries.ts`).
 */
import { linkLibrary, STM_LINK } from '../hooks/libraries.js';
import { type StmLibrary, setStmObserver } from './observer.js';
import { STM } from './stm.js';

export type { Element, TypedView } from './location.js';
export {
  type AccessLog,
  type AtomicsLike,
  type StmLibrary,
  type StmObserver,
  setStmObserver,
} from './observer.js';
export { STM, type STMHandle, type STMOptions } from './stm.js';
export type { Transaction } from './transaction.js';

linkLibrary<StmLibrary>(STM_LINK, { setStmObserver, atomic: STM.prototype.atomic });
