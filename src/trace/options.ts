/**
 * The values of the reading options `--format` ({@link Format}, `./reader.ts`) and `--pipeline`
 * ({@link PipelineMode}, `./pipeline.ts`), without the readers' code: the CLI offers them without loading it
 * (issue 21 §4).
 */

import type { Format } from './reader.js';
import type { PipelineMode } from './reading.js';

export const FORMATS: readonly Format[] = ['auto', 'std', 'ext', 'rr', 'bin'];
export const PIPELINE_MODES: readonly PipelineMode[] = ['auto', 'on', 'split', 'off'];
