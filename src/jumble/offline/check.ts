/**
 * `goldilocks check --adversarial`: the offline adversarial-memory analysis of a trace file (./analysis.ts), as an
 * extra pass beside the detectors' — two reads of the file: a pre-pass for the threads' lifetimes ([GC1] needs to
 * know which threads may still act, and whether one will start unforked: ./threads.ts), then the analysis on its own
 * engine (feasibility as the detectors' run; no skip list, since a skipped write would be missing from the buffers).
 * A second pass rather than a consumer of the detectors' event stream because the pre-pass must see the whole trace
 * first anyway, and the detectors' reading (threads, split segments) then stays as it is. Standard input cannot be
 * read twice: it is refused.
 */
import { Engine } from '../../engine/engine.js';
import type { EventBatch } from '../../model/events.js';
import { Symbols } from '../../model/symbols.js';
import { type Format, readTrace } from '../../trace/reader.js';
import { formatEvent } from '../../trace/writer.js';
import { AdversarialAnalysis, type AnalysisOptions } from './analysis.js';
import { adversarialJson, adversarialText, type JsonAdversarial } from './report.js';
import { ThreadSpans } from './threads.js';

export { adversarialText };

export interface AdversarialOptions extends AnalysisOptions {
  format?: Format;
  /** Accept infeasible events (as `check --lenient`; the warnings are the detectors' run's to print). */
  lenient?: boolean;
}

/** The analysis after both passes, with the trace's symbols. */
export interface AdversarialResult {
  analysis: AdversarialAnalysis;
  symbols: Symbols;
  events: number;
}

/**
 * Runs the analysis over the trace at `path`.
 * @throws RangeError for standard input (`-`); TraceError for a malformed line or an infeasible event (unless
 *   `lenient`); Error when the file cannot be read.
 */
export async function adversarialCheck(
  path: string,
  options: AdversarialOptions = {},
): Promise<AdversarialResult> {
  if (path === '-')
    throw new RangeError('the adversarial analysis reads the trace twice: give a file, not stdin');
  const symbols = new Symbols();
  const spans = new ThreadSpans();
  await readTrace(path, symbols, (b) => spans.add(b), { format: options.format });
  const engine = new Engine(
    symbols,
    [],
    { file: path, lenient: options.lenient },
    (b: EventBatch, i: number) => formatEvent(symbols, b, i) ?? '',
  );
  const analysis = new AdversarialAnalysis(
    { symbols, locks: engine.locks, sink: { race() {} } },
    spans,
    options,
  );
  engine.detectors.push(analysis);
  await readTrace(
    path,
    symbols,
    (b) => {
      analysis.batch = b;
      engine.process(b);
    },
    { format: options.format },
  );
  return { analysis, symbols, events: engine.events };
}

/**
 * The `adversarial` section of `goldilocks check --adversarial` (./report.ts) for the trace at `path`.
 * @param racy the detector run's racy variables (for `noChoiceRaces`). @throws as {@link adversarialCheck}.
 */
export async function adversarialSection(
  path: string,
  options: AdversarialOptions & { maxReports: number },
  racy?: readonly string[],
): Promise<JsonAdversarial> {
  const { analysis, symbols } = await adversarialCheck(path, options);
  return adversarialJson(analysis, symbols, options.maxReports, racy);
}
