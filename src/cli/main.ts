#!/usr/bin/env node
import { closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type cliProgress from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import { type CheckOptions, checkFile } from '../check.js';
import { DETECTORS } from '../detectors/index.js';
import { SkipList } from '../engine/skip.js';
import { LIVE_DETECTORS, ON_RACE } from '../live/options.js';
import { TraceError } from '../model/errors.js';
import { Symbols } from '../model/symbols.js';
import { jsonReport, textReport } from '../report/report.js';
import { BinaryWriter } from '../trace/binary-writer.js';
import { PIPELINE_MODES, type PipelineMode } from '../trace/pipeline.js';
import { FORMATS, type Format, readTrace } from '../trace/reader.js';
import { writeAll } from '../trace/write-all.js';
import { formatEvent } from '../trace/writer.js';
import type { RunFlags } from './run.js';

/** Exit codes (README "Exit codes"). */
export const EXIT_OK = 0;
export const EXIT_RACES = 1;
export const EXIT_INPUT = 2;
export const EXIT_INTERNAL = 3;
/**
 * Standard output was closed before all was written (`goldilocks convert big.trace | head`): the status of a process
 * killed by SIGPIPE (128 + 13), as the shell's tools end, without a message. Node ignores SIGPIPE and fails the write
 * with EPIPE instead.
 */
export const EXIT_PIPE = 141;

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected a non-negative integer, found '${v}'`);
  return n;
}

const OPTIMIZATIONS = ['xact', 'owner', 'alock', 'transfer', 'gc', 'eager', 'walkcache', 'hbmemo'] as const;

interface CheckFlags {
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
}

async function check(trace: string, flags: CheckFlags): Promise<number> {
  const disabled = new Set((flags.disable ?? '').split(',').filter((x) => x !== ''));
  for (const d of disabled) {
    if (!(OPTIMIZATIONS as readonly string[]).includes(d)) {
      throw new InvalidArgumentError(
        `--disable: unknown optimization '${d}' (expected ${OPTIMIZATIONS.join(', ')})`,
      );
    }
  }
  const detectors = flags.detector.split(',');
  for (const d of detectors) {
    if (!(DETECTORS as readonly string[]).includes(d))
      throw new InvalidArgumentError(
        `--detector: unknown detector '${d}' (expected ${DETECTORS.join(', ')})`,
      );
  }
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
    skip: flags.skip ? SkipList.load(flags.skip) : undefined,
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
  try {
    result = await checkFile(trace, options);
    bar?.update(bar.getTotal()); // the last MiB, which a whole-MiB count of bytes read does not reach
  } finally {
    bar?.stop();
  }
  if (warningsShown > 10)
    process.stderr.write(`warning: ${warningsShown - 10} more infeasible events accepted (--lenient)\n`);
  const file = trace === '-' ? '<stdin>' : trace;
  const reports = result.results.map((d) => jsonReport(result, d, file, flags.maxReports));
  const json = reports.length === 1 ? reports[0] : reports;
  if (flags.report) writeFileSync(flags.report, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else
    for (const j of reports)
      process.stdout.write(
        textReport(j, { colors: flags.color && process.stdout.isTTY === true, stats: flags.stats === true }),
      );
  if (flags.json && flags.stats)
    for (const j of reports)
      process.stderr.write(textReport({ ...j, races: [], racesOmitted: 0 }, { colors: false, stats: true }));
  const racy = reports.some((j) => j.summary.racyVariables > 0);
  return racy && flags.failOnRace ? EXIT_RACES : EXIT_OK;
}

type ConvertTo = 'std' | 'ext' | 'bin';

async function convert(
  input: string,
  flags: { from: Format; to: ConvertTo; output?: string },
): Promise<number> {
  // `-o -` is standard output, as `-` is standard input
  const toStdout = flags.output === undefined || flags.output === '-';
  if (flags.to === 'bin' && toStdout && process.stdout.isTTY === true)
    throw new InvalidArgumentError('--to bin writes binary: give -o FILE or redirect standard output');
  const symbols = new Symbols();
  const fd = toStdout ? 1 : openSync(flags.output as string, 'w');
  const name = input === '-' ? '<stdin>' : input;
  const binary = flags.to === 'bin' ? new BinaryWriter(symbols, fd) : undefined;
  try {
    await readTrace(
      input,
      symbols,
      (b) => {
        if (binary !== undefined) {
          binary.write(b);
          return;
        }
        const lines: string[] = [];
        for (let i = 0; i < b.length; i++) {
          const line = formatEvent(symbols, b, i, flags.to === 'std');
          if (line === null) {
            throw new TraceError(
              name,
              b.line[i],
              1,
              formatEvent(symbols, b, i) ?? '',
              'this event has no spelling in RAPID STD (use --to ext)',
            );
          }
          lines.push(line);
        }
        writeAll(fd, Buffer.from(`${lines.join('\n')}\n`));
      },
      { format: flags.from },
    );
    binary?.end();
  } finally {
    if (fd !== 1) closeSync(fd);
  }
  return EXIT_OK;
}

export async function main(argv: string[]): Promise<number> {
  let code = EXIT_OK;
  const program = new Command('goldilocks')
    .version(version)
    .description(
      'Precise data-race detection on recorded execution traces (the Goldilocks algorithm, PLDI 2007).',
    )
    .exitOverride()
    .enablePositionalOptions()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program
    .command('check')
    .description('check a trace for data races and report them')
    .argument('<trace>', 'trace file (.gz read transparently), or - for stdin')
    .addOption(
      new Option(
        '-d, --detector <names>',
        `detector, or several separated by commas: ${DETECTORS.join(', ')}`,
      ).default('goldilocks'),
    )
    .addOption(
      new Option('-f, --format <format>', 'input format').choices(FORMATS as string[]).default('auto'),
    )
    .option('--json', 'print the report as JSON (schema docs/REPORT.md) instead of text')
    .option('--report <file>', 'also write the JSON report to a file')
    .option('--max-reports <n>', 'report at most n location pairs', positiveInt, 20)
    .option('--fail-on-race', 'exit with code 1 when a race is found')
    .option('--lenient', 'accept infeasible events with a warning instead of stopping')
    .option('--stats', 'print detector statistics (short-circuit shares, list walks, GC)')
    .option(
      '--skip <file>',
      'variables, fields, objects or locations that need no check (static pre-elimination, §5.2)',
    )
    .option('--first-race-only', 'goldilocks: stop checking a variable after its first race (§6)')
    .option(
      '--eager-bound <cells>',
      'goldilocks: partially-eager evaluation when the event list exceeds this length',
      positiveInt,
      200_000,
    )
    .option('--disable <opts>', `goldilocks: switch optimizations off (${OPTIMIZATIONS.join(',')})`)
    .option('--block-size <n>', 'eraser: array sub-block size in elements', positiveInt, 8)
    .addOption(
      new Option(
        '--pipeline <mode>',
        'parse in worker threads while the detectors run: on (one parser thread), split (a text file cut between ' +
          'parser threads), off (auto: split for text files of 256 MiB or more, one parser thread for other text or ' +
          'gzip files of 8 MiB or more, when a core is free: processors 1.5 cores idle over a 50 ms sample)',
      )
        .choices(PIPELINE_MODES as string[])
        .default('auto'),
    )
    .option('--no-progress', 'no progress bar on stderr')
    .option('--no-color', 'no colors')
    .action(async (trace: string, flags: CheckFlags) => {
      code = await check(trace, flags);
    });
  program
    .command('convert')
    .description('convert a trace between formats (to RAPID STD, the extended format or the binary format)')
    .argument('<trace>', 'input trace, or - for stdin')
    .addOption(new Option('--from <format>', 'input format').choices(FORMATS as string[]).default('auto'))
    .addOption(new Option('--to <format>', 'output format').choices(['std', 'ext', 'bin']).default('ext'))
    .option('-o, --output <file>', 'output file; - or none: standard output (bin: not a terminal)')
    .action(async (trace: string, flags: { from: Format; to: ConvertTo; output?: string }) => {
      code = await convert(trace, flags);
    });
  const dashes = argv.indexOf('--');
  program
    .command('run')
    .description(
      'run a JavaScript/TypeScript program, or after -- any command, with every thread race-checked live',
    )
    .usage('[options] <entry.js|.mjs|.cjs|.ts> [args...]  |  run [options] -- <command...>')
    .argument('<program...>', 'entry point and its arguments, or after -- a command and its arguments')
    .addOption(
      new Option('--on-race <mode>', 'throw DataRaceException, report and go on, or abort with exit code 66')
        .choices(ON_RACE as unknown as string[])
        .default('throw'),
    )
    .option('--report <file>', 'write the JSON report (schema docs/REPORT.md; all processes merged)')
    .option(
      '--record <file>',
      'also write the execution as a trace in the extended format, for goldilocks check (docs/RUNTIME.md "Recording")',
    )
    .addOption(
      new Option(
        '-d, --detector <name>',
        'detector checking the accesses online: goldilocks, fasttrack (vector clocks; same verdicts) or eraser (locksets of sync-library locks only; warnings are potential races)',
      )
        .choices(LIVE_DETECTORS as unknown as string[])
        .default('goldilocks'),
    )
    .passThroughOptions()
    .action(async (args: string[], flags: RunFlags) => {
      if (!process.features.require_module)
        throw new InvalidArgumentError(
          `run needs a Node.js that can require ES modules (≥ 20.19 or ≥ 22.12); this is ${process.version}`,
        );
      const { runProgram } = await import('./run.js'); // the live runtime's launcher: loaded for `run` only
      code = await runProgram(args, dashes >= 0 && dashes < argv.indexOf(args[0], dashes), flags);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    const err = e as Error & { code?: string; exitCode?: number };
    if (
      err.code === 'commander.helpDisplayed' ||
      err.code === 'commander.version' ||
      err.code === 'commander.help'
    )
      return EXIT_OK;
    if (err.code?.startsWith('commander.')) return EXIT_INPUT;
    if (err.code === 'EPIPE') return EXIT_PIPE;
    if (err instanceof TraceError || err instanceof InvalidArgumentError) {
      process.stderr.write(`goldilocks: ${err.message}\n`);
      return EXIT_INPUT;
    }
    if (
      err.code === 'ENOENT' ||
      err.code === 'EACCES' ||
      err.code === 'EISDIR' ||
      err.code === 'Z_DATA_ERROR'
    ) {
      process.stderr.write(`goldilocks: ${err.message}\n`);
      return EXIT_INPUT;
    }
    process.stderr.write(`goldilocks: internal error (please report): ${err.stack ?? err.message}\n`);
    return EXIT_INTERNAL;
  }
  return code;
}

// a write of the stream (not writeAll's synchronous ones) to a closed pipe fails as an 'error' event
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(EXIT_PIPE);
});
main(process.argv.slice(2)).then((c) => {
  process.exitCode = c;
});
