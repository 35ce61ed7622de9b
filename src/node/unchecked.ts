/**
 * The file of a run's report directory (`GOLDILOCKS_REPORT_DIR`) listing the modules left uninstrumented because the
 * rewriter cannot parse them (`./transform.ts`), one file name or URL a line, from every thread and process. A module
 * of its own so that each thread's `./transform.ts` does not load `./run.ts` (and with it `child_process`).
 */
export const UNCHECKED_LIST = 'unchecked.txt';
