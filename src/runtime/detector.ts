/**
 * The default runtime module loaded by `./register.ts` (when `GOLDILOCKS_RUNTIME` names no other): its default
 * export is a {@link RuntimeFactory}. For now it is the passthrough; the Goldilocks detector replaces it.
 */
import { passthrough, type RuntimeFactory } from './hooks.js';

const factory: RuntimeFactory = () => passthrough;
export default factory;
