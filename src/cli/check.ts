/**
 * `goldilocks check`: checks a trace with one or more detectors (`../check.ts`) and prints their reports as text
 * or JSON (`../report/report.ts`; schema docs/REPORT.md), with a progress bar on a terminal for inputs of 8 MiB
 * or more. Loaded by `./main.cts` when the command runs.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type cliProgress from 'cli-progress';
import { type CheckOptions, checkFile } from '../check.js';
import { DETECTORS } from '../detectors/names.js';
import { jsonText, writeJsonReport } from '../report/json.js';
import { jsonReport } from '../report/report.js';
import type { Format } from '../trace/reader.js';
import type { PipelineMode } from '../trace/reading.js';
import { EXIT_OK, EXIT_RACES, OPTIMIZATIONS, VERSION } from './options.js';
import { prestarted } from './prestarted.js';
import { readableFile, suppressionsFile, UsageError, writableFile } from './usage.js';

export interface CheckFlags {
  detector: string;
  format: Format;
  json?: boolean;
  report?: string;
  maxReports: number;
  failOnRace?: boolean;
  lenient?: boolean;
  stats?: boolean;
  skip?: string;
  firstRaceOnly?: boolean;
  eagerBound: number;
  disable?: string;
  blockSize: number;
  progress: boolean;
  color: boolean;
  pipeline: PipelineMode;
  adversarial?: boolean;
  /** A file for the HTML page (../report/html/page.ts). */
  html?: string;
  /** A file for the SARIF log (../report/sarif.ts). */
  sarif?: string;
  /** A suppressions file (../report/suppressions.ts). */
  suppressions?: string;
}

export async function check(trace: string, flags: CheckFlags): Promise<number> {
  const disabled = new Set((flags.disable ?? '').split(',').filter((x) => x !== ''));
  for (const d of disabled) {
    if (!(OPTIMIZATIONS as readonly string[]).includes(d)) {
      throw new UsageError(`--disable: unknown optimization '${d}' (expected ${OPTIMIZATIONS.join(', ')})`);
    }
  }
  const detectors = flags.detector.split(',');
  for (const d of detectors) {
    if (!(DETECTORS as readonly string[]).includes(d))
      throw new UsageError(`--detector: unknown detector '${d}' (expected ${DETECTORS.join(', ')})`);
  }
  if (flags.adversarial && trace === '-')
    throw new UsageError(
      "--adversarial: trace '-' is standard input (expected a file: the analysis reads the trace twice)",
    );
  if (trace !== '-') readableFile(trace, 'trace', 'a trace file, or - for standard input');
  if (flags.skip) readableFile(flags.skip, '--skip', 'a file of variables, fields, objects or locations');
  if (flags.report) writableFile(flags.report, '--report');
  if (flags.sarif) writableFile(flags.sarif, '--sarif');
  if (flags.html) writableFile(flags.html, '--html');
  const history = flags.html ? new (await import('../report/html/history.js')).SyncHistory() : undefined;
  const suppressions = flags.suppressions ? await suppressionsFile(flags.suppressions) : undefined;
  let bar: cliProgress.SingleBar | undefined;
  const size = trace === '-' ? 0 : statSync(trace).size;
  if (flags.progress && process.stderr.isTTY && size > 8 << 20) {
    const { default: cliProgress } = await import('cli-progress'); // loaded only to draw a bar
    bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: 'checking [{bar}] {percentage}% | {value}/{total} MiB | ETA {eta}s',
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.ceil(size / (1 << 20)), 0);
  }
  let warningsShown = 0;
  const options: CheckOptions = {
    detectors,
    format: flags.format,
    pipeline: flags.pipeline,
    lenient: flags.lenient,
    suppressions,
    observers: history ? [history] : undefined,
    skip: flags.skip ? (await import('../engine/skip.js')).SkipList.load(flags.skip) : undefined,
    detectorOptions: {
      goldilocks: {
        xactShortCircuit: !disabled.has('xact'),
        ownerShortCircuit: !disabled.has('owner'),
        alockShortCircuit: !disabled.has('alock'),
        directTransfer: !disabled.has('transfer'),
        gc: !disabled.has('gc'),
        eagerBound: disabled.has('eager') ? 0 : flags.eagerBound,
        walkCacheMinCells: disabled.has('walkcache') ? 0 : undefined,
        hbMemo: !disabled.has('hbmemo'),
        stopAfterFirstRace: flags.firstRaceOnly,
      },
      blockSize: flags.blockSize,
    },
    onProgress: bar ? (read) => bar.update(Math.floor(read / (1 << 20))) : undefined,
    onWarning: (e) => {
      if (warningsShown++ < 10) process.stderr.write(`warning: ${e.message}\n`);
    },
  };
  let result: Awaited<ReturnType<typeof checkFile>>;
  await prestarted(); // the parser thread the executable may have started for this check (./prestarted.ts)
  try {
    result = await checkFile(trace, options);
    bar?.update(bar.getTotal()); // the last MiB, which a whole-MiB count of bytes read does not reach
  } finally {
    bar?.stop();
  }
  if (warningsShown > 10)
    process.stderr.write(`warning: ${warningsShown - 10} more infeasible events accepted (--lenient)\n`);
  const file = trace === '-' ? '<stdin>' : trace;
  let reports = result.results.map((d) => jsonReport(result, d, file, flags.maxReports, suppressions));
  // issue 22 §2: the adversarial-memory analysis, a second pass over the file (../jumble/offline/check.ts)
  const jumble = flags.adversarial ? await import('../jumble/offline/check.js') : undefined;
  const adversarial = await jumble?.adversarialSection(trace, flags, reports[0].racyVariables);
  if (adversarial) reports = reports.map((j) => ({ ...j, adversarial }));
  const json = reports.length === 1 ? reports[0] : reports;
  if (flags.report) writeJsonReport(flags.report, json);
  if (flags.sarif) (await import('../report/sarif.js')).writeSarif(flags.sarif, reports, VERSION);
  if (flags.html && history) {
    const [{ writeHtml }, { SourceReader }] = await Promise.all([
      import('../report/html/page.js'),
      import('../report/html/sources.js'),
    ]);
    writeHtml(flags.html, {
      reports,
      evidence: (race) => history.evidence(race, result.symbols),
      missing: 'no synchronization history',
      sources: new SourceReader(trace === '-' ? [process.cwd()] : [path.dirname(trace), process.cwd()]),
    });
  }
  if (flags.json) process.stdout.write(jsonText(json));
  if (!flags.json || flags.stats) {
    const { colorsFor, textReport } = await import('../report/text.js'); // with picocolors, loaded only to print text
    for (const j of reports)
      if (flags.json)
        process.stderr.write(
          textReport({ ...j, races: [], racesOmitted: 0 }, { colors: false, stats: true }),
        );
      else
        process.stdout.write(
          textReport(j, {
            colors: flags.color && colorsFor(process.stdout),
            stats: flags.stats === true,
          }),
        );
  }
  if (adversarial && !flags.json) process.stdout.write(jumble?.adversarialText(adversarial) ?? '');
  const racy = reports.some((j) => j.summary.racyVariables > 0);
  return racy && flags.failOnRace ? EXIT_RACES : EXIT_OK;
}
