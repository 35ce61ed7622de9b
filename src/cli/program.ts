/**
 * The `goldilocks` command line: commander wiring of the commands `check`, `convert`, `run` and `jumble` and their exit
 * codes (`./options.ts`). Each command's implementation (`./check.ts`, `./convert.ts`, `./run.ts`) is imported
 * when it runs, so that a command, or `--help`, loads only what it uses (issue 21 §4; `npm run bench:start`). Loaded by
 * `./main.cts`, the executable, once it has started `check`'s parser thread (`./prestart.ts`).
 */
import { Command, Option } from 'commander';
import { DETECTORS } from '../detectors/names.js';
import {
  JUMBLE_HEURISTICS,
  LIVE_DETECTORS,
  ON_RACE,
  SHADOW_LIMIT_DEFAULT,
  SHADOW_LIMIT_MAX,
} from '../live/options.js';
import { FORMATS, PIPELINE_MODES } from '../trace/options.js';
import type { Format } from '../trace/reader.js';
import type { CheckFlags } from './check.js';
import type { ConvertTo } from './convert.js';
import type { JumbleFlags } from './jumble-campaign.js';
import { EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_PIPE, OPTIMIZATIONS, VERSION } from './options.js';
import type { RunFlags } from './run.js';
import { choice, integerAtLeast, integerAtMost, misuseLine, UsageError } from './usage.js';

/** The exit code of a write to a closed pipe, for the executable's handler of the stream's errors (`./main.cts`). */
export { EXIT_PIPE };

export async function main(argv: string[]): Promise<number> {
  let code = EXIT_OK;
  const program = new Command('goldilocks')
    .version(VERSION)
    .description(
      'Precise data-race detection on recorded execution traces (the Goldilocks algorithm, PLDI 2007).',
    )
    .exitOverride()
    .enablePositionalOptions()
    // commander's own complaints are written by the catch below, as one line each (./usage.ts)
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => {} });
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
      new Option('-f, --format <format>', 'input format')
        .choices(FORMATS as string[])
        .argParser(choice('--format', 'format', FORMATS))
        .default('auto'),
    )
    .option('--json', 'print the report as JSON (schema docs/REPORT.md) instead of text')
    .option('--report <file>', 'also write the JSON report to a file')
    .option('--sarif <file>', 'also write the races as a SARIF 2.1.0 log (code scanning, editors)')
    .option(
      '--html <file>',
      'also write a self-contained HTML page: per race both accesses with their source, the timelines, the lockset (Figure 6)',
    )
    .option('--max-reports <n>', 'report at most n location pairs', integerAtLeast('--max-reports', 0), 20)
    .option('--fail-on-race', 'exit with code 1 when a race is found')
    .option(
      '--suppressions <file>',
      "races not to report (ThreadSanitizer's format: race:<pattern> lines); they are counted in the summary",
    )
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
      integerAtLeast('--eager-bound', 0),
      200_000,
    )
    .option('--disable <opts>', `goldilocks: switch optimizations off (${OPTIMIZATIONS.join(',')})`)
    .option(
      '--block-size <n>',
      'eraser: array sub-block size in elements',
      integerAtLeast('--block-size', 1),
      8,
    )
    .addOption(
      new Option(
        '--pipeline <mode>',
        'parse in worker threads while the detectors run: on (one parser thread), split (a text file cut between ' +
          'parser threads), off (auto: split for text files of 256 MiB or more, one parser thread for other text or ' +
          'gzip files of 8 MiB or more, when a core is free: processors 1.5 cores idle or running the check over a ' +
          '20-50 ms sample)',
      )
        .choices(PIPELINE_MODES as string[])
        .argParser(choice('--pipeline', 'mode', PIPELINE_MODES))
        .default('auto'),
    )
    .option(
      '--adversarial',
      'also report what each read could have returned under adversarial memory (Jumble, PLDI 2010; traces with values)',
    )
    .option('--no-progress', 'no progress bar on stderr')
    .option('--no-color', 'no colors')
    .action(async (trace: string, flags: CheckFlags) => {
      const { check } = await import('./check.js');
      code = await check(trace, flags);
    });
  program
    .command('convert')
    .description('convert a trace between formats (to RAPID STD, the extended format or the binary format)')
    .argument('<trace>', 'input trace, or - for stdin')
    .addOption(
      new Option('--from <format>', 'input format')
        .choices(FORMATS as string[])
        .argParser(choice('--from', 'format', FORMATS))
        .default('auto'),
    )
    .addOption(
      new Option('--to <format>', 'output format')
        .choices(['std', 'ext', 'bin'])
        .argParser(choice('--to', 'format', ['std', 'ext', 'bin']))
        .default('ext'),
    )
    .option('-o, --output <file>', 'output file; - or none: standard output (bin: not a terminal)')
    .action(async (trace: string, flags: { from: Format; to: ConvertTo; output?: string }) => {
      const { convert } = await import('./convert.js');
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
        .argParser(choice('--on-race', 'mode', ON_RACE))
        .default('throw'),
    )
    .addOption(
      new Option(
        '--fail-on-race',
        'report every race and go on (as --on-race=report), then exit with code 66 if any was reported',
      ).conflicts('onRace'),
    )
    .option('--report <file>', 'write the JSON report (schema docs/REPORT.md; all processes merged)')
    .option('--sarif <file>', 'write the races as a SARIF 2.1.0 log (code scanning, editors)')
    .option(
      '--html <file>',
      'write a self-contained HTML page of the races (both accesses with their source)',
    )
    .option(
      '--suppressions <file>',
      "races not to report nor throw for (ThreadSanitizer's format: race:<pattern> lines); counted in the summary",
    )
    .option(
      '--stats',
      'print detector statistics on stderr (short-circuit shares, list walks), all processes summed',
    )
    .option(
      '--history',
      "keep every checked access's stack, so that a race also shows its previous access's stack (costs a stack capture per checked access; not with --record)",
    )
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
        .argParser(choice('--detector', 'detector', LIVE_DETECTORS))
        .default('goldilocks'),
    )
    .addOption(
      new Option(
        '--jumble <heuristic>',
        'adversarial memory (Jumble, PLDI 2010; docs/JUMBLE.md): racy element reads return older values the memory model allows, chosen by sc, oldest, obd (oldest-but-different), random or rbd (random-but-different); runs the fasttrack detector with --on-race=report',
      )
        .choices(JUMBLE_HEURISTICS as unknown as string[])
        .argParser(choice('--jumble', 'heuristic', JUMBLE_HEURISTICS)),
    )
    .option(
      '--jumble-seed <n>',
      'seed of the random heuristics (default 0)',
      integerAtLeast('--jumble-seed', 0),
    )
    .option(
      '--jumble-locations <file>',
      'jumble only these locations, one a line: sab#B+O (one buffer) or FILE:LINE:COLUMN+O[/S] (every buffer made there); default: every element location',
    )
    .option(
      '--jumble-fairness <k>',
      'after k consecutive older values a read returns the newest (default 16), or off',
    )
    .addOption(
      new Option(
        '--shadow-limit <MiB>',
        `most memory for the detector's state per process (its shadow of the shared memory), 1 to ${SHADOW_LIMIT_MAX}; only what is used is allocated (default ${SHADOW_LIMIT_DEFAULT})`,
      ).argParser(integerAtMost('--shadow-limit', SHADOW_LIMIT_MAX)),
    )
    .passThroughOptions()
    .action(async (args: string[], flags: RunFlags) => {
      if (!process.features.require_module)
        throw new UsageError(
          `run: Node.js ${process.version} cannot require ES modules (expected Node.js ≥ 20.19 or ≥ 22.12)`,
        );
      const { runProgram } = await import('./run.js');
      code = await runProgram(args, dashes >= 0 && dashes < argv.indexOf(args[0], dashes), flags);
    });
  program
    .command('jumble')
    .description(
      'the campaign of adversarial memory (Jumble, PLDI 2010; docs/JUMBLE.md): each racy location group (allocation site + offset + size) jumbled under sc, oldest, obd, random and rbd against plain runs; destructive, qos, benign, not-exercised or inconclusive',
    )
    .usage('[options] <entry.js|.mjs|.cjs|.ts> [args...]  |  jumble [options] -- <command...>')
    .argument('<program...>', 'entry point and its arguments, or after -- a command and its arguments')
    .option('--runs <n>', 'runs per configuration and location', integerAtLeast('--runs', 1), 100)
    .option(
      '--jobs <n>',
      'runs at a time (default: the free cores, the available ones less the load average)',
      integerAtLeast('--jobs', 1),
    )
    .option(
      '--timeout <ms>',
      "a run taking longer hangs (killed); default 10 × the detection run's time, at least 10 s",
      integerAtLeast('--timeout', 1),
    )
    .option('--seed <n>', 'seed of the first run (run i: seed + i)', integerAtLeast('--seed', 0), 0)
    .option(
      '--races <report.json>',
      'the racy locations from this report of goldilocks run (default: a detection run)',
    )
    .option(
      '--oracle <script>',
      'a shell command judging each run: its stdout on stdin, GOLDILOCKS_ORACLE_* variables (docs/JUMBLE.md); non-zero exit = failure',
    )
    .option(
      '--qos <factor>',
      "a jumbled run costing more than factor × the sc runs' median (CPU time) fails by QoS (default 3)",
      (v: string) => {
        const n = Number(v);
        if (!(n > 1)) throw new UsageError(`--qos: invalid factor '${v}' (expected a number > 1)`);
        return n;
      },
    )
    .option(
      '--qos-margin <ms>',
      '…and more than this many ms beyond it (default 1000)',
      integerAtLeast('--qos-margin', 0),
    )
    .option('--json <file>', 'write the results (schema goldilocks-jumble/1, docs/REPORT.md)')
    .option('--no-progress', 'no progress bar on stderr')
    .passThroughOptions()
    .action(async (args: string[], flags: JumbleFlags) => {
      const { jumbleCampaign } = await import('./jumble-campaign.js');
      code = await jumbleCampaign(args, dashes >= 0 && dashes < argv.indexOf(args[0], dashes), flags);
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
    if (err.code === 'EPIPE') return EXIT_PIPE;
    const name = argv.find((a) => !a.startsWith('-'));
    const line = misuseLine(err, program.commands.find((c) => c.name() === name) ?? program);
    if (line !== undefined) {
      process.stderr.write(`goldilocks: ${line}\n`);
      return EXIT_INPUT;
    }
    process.stderr.write(`goldilocks: internal error (please report): ${err.stack ?? err.message}\n`);
    return EXIT_INTERNAL;
  }
  return code;
}
