/**
 * End-to-end benchmark (parse + detect) of the detectors, side by side, on generated and real traces.
 *
 *   npm run bench -- [--sizes 5000000,50000000] [--real] [--detectors goldilocks,fasttrack,djit,eraser]
 *                    [--binary] [--repeat N] [--out FILE]
 *
 * Each measurement runs in a fresh child process (bench/run-one.ts), so that peak RSS is the detector's own
 * and no JIT or heap state carries over. Generated traces (bench/generate.ts) are written once into
 * bench/out/ (gitignored) and reused; so are their binary conversions (`--binary`, `goldilocks convert --to bin`). Prints a Markdown table (and appends it to --out FILE).
 * `--help` lists every option.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PIPELINE_MODES } from '../dist/trace/options.js';
import type { PipelineMode } from '../dist/trace/reading.js';
import { describeMachine, ROOT, runNode } from '../scripts/child.js';
import { parseCount } from './generate.js';
import type { RunResult } from './run-one.js';
import { median } from './timing.js';

const HERE = path.join(ROOT, 'bench');
const ALL_DETECTORS = ['goldilocks', 'eager', 'djit', 'fasttrack', 'eraser'];
const DEFAULT_DETECTORS = 'goldilocks,fasttrack,djit,eraser';
/** eager (Figure 5 of the paper, the slow oracle) runs only on inputs of at most this many events. */
const EAGER_MAX_EVENTS = 100_000;

const USAGE = `usage: npm run bench -- [options]
  --sizes N,N,...     generated trace sizes in events (default 5000000,50000000; 5M, 200k also accepted)
  --real              also run the largest real traces (../shared/traces/roadrunner: lusearch-t2, sunflow-t2)
  --real-dir DIR      directory of the real traces (default ../shared/traces/roadrunner)
  --real-files A,B    real trace files in it (default lusearch-t2.trace.gz,sunflow-t2.trace.gz)
  --no-generated      only the real traces
  --binary            also run each input converted to the binary format (rows '... (bin)'; the conversion is
                      done once, into bench/out/, and not timed)
  --ext               also run each real trace converted to extended-format text, STD's superset (rows
                      '... (ext text)'; converted once, into bench/out/)
  --detectors A,B     detectors (default ${DEFAULT_DETECTORS});
                      eager (the slow oracle) only runs on inputs of <= ${EAGER_MAX_EVENTS} events
  --pipeline M,M      how to read: auto (default), on (one parser thread), split (parser threads), off;
                      several give rows per mode, labelled [pipeline MODE], run side by side
  --repeat N          median of N runs (default 1)
  --out FILE          append the Markdown report to FILE
  --heap MB           --max-old-space-size of the measured processes
  --lenient           tolerate infeasible events in real traces (counted as warnings)
  generated traces:   --threads 8 --vars 10000 --locks 100 --volatiles 10 --seed 1 --racy 0.004
`;

interface Input {
  label: string;
  file: string;
  /** Known event count (generated traces), before any run. */
  events?: number;
  generated: boolean;
  /** The text input this one is the binary conversion of (`--binary`). */
  binaryOf?: Input;
  /** `--pipeline` mode of its runs. */
  pipeline: string;
}

interface Row {
  input: Input;
  detector: string;
  /** Median of the runs; undefined if skipped or failed. */
  result?: RunResult;
  note?: string;
}

function fmtCount(n: number): string {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}k`;
  return String(n);
}

/** Millions of events per second: 2 decimals, or 3 significant digits below 0.1. */
function mevs(perSec: number): string {
  const m = perSec / 1e6;
  return m >= 0.1 ? m.toFixed(2) : m.toPrecision(3);
}

function mib(kib: number): string {
  return (kib / 1024).toFixed(0);
}

/**
 * The conversion of a text input to the binary format (`bin`) or to extended-format text (`ext`, STD's
 * superset), in bench/out/ (converted once, with `goldilocks convert --to ...`).
 */
async function convertedInput(input: Input, to: 'bin' | 'ext'): Promise<Input> {
  const base = path.basename(input.file).replace(/\.trace(\.gz)?$/, '');
  const file = path.join(HERE, 'out', to === 'bin' ? `${base}.bin` : `${base}.ext.trace`);
  if (!existsSync(file)) {
    process.stderr.write(
      `converting ${path.relative(ROOT, input.file)} to ${path.relative(ROOT, file)} ...\n`,
    );
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.partial`;
    const cli = path.join(ROOT, 'src', 'cli', 'main.ts');
    await runNode(cli, ['convert', '--to', to, input.file, '-o', partial], { echoStderr: true });
    renameSync(partial, file);
  }
  return to === 'bin'
    ? { ...input, label: `${input.label} (bin)`, file, binaryOf: input }
    : { ...input, label: `${input.label} (ext text)`, file };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '5000000,50000000' },
      real: { type: 'boolean', default: false },
      'real-dir': { type: 'string', default: path.resolve(ROOT, '../shared/traces/roadrunner') },
      'real-files': { type: 'string', default: 'lusearch-t2.trace.gz,sunflow-t2.trace.gz' },
      'no-generated': { type: 'boolean', default: false },
      binary: { type: 'boolean', default: false },
      ext: { type: 'boolean', default: false },
      detectors: { type: 'string', default: DEFAULT_DETECTORS },
      pipeline: { type: 'string', default: 'auto' },
      repeat: { type: 'string', default: '1' },
      out: { type: 'string' },
      heap: { type: 'string' },
      lenient: { type: 'boolean', default: false },
      threads: { type: 'string', default: '8' },
      vars: { type: 'string', default: '10000' },
      locks: { type: 'string', default: '100' },
      volatiles: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      racy: { type: 'string', default: '0.004' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const detectors = values.detectors
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const d of detectors)
    if (!ALL_DETECTORS.includes(d))
      throw new Error(`unknown detector '${d}' (one of ${ALL_DETECTORS.join(', ')})`);
  const modes = values.pipeline.split(',').filter((m) => m.length > 0);
  for (const m of modes)
    if (!PIPELINE_MODES.includes(m as PipelineMode))
      throw new Error(`--pipeline: '${m}' is not one of ${PIPELINE_MODES.join(', ')}`);
  if (modes.length === 0) throw new Error('--pipeline: no mode');
  const repeat = parseCount(values.repeat, '--repeat');
  if (repeat < 1) throw new Error('--repeat must be at least 1');
  const nodeArgs =
    values.heap === undefined ? [] : [`--max-old-space-size=${parseCount(values.heap, '--heap')}`];
  const gen = {
    threads: parseCount(values.threads, '--threads'),
    vars: parseCount(values.vars, '--vars'),
    locks: parseCount(values.locks, '--locks'),
    volatiles: parseCount(values.volatiles, '--volatiles'),
    seed: parseCount(values.seed, '--seed'),
    racy: values.racy,
  };

  // inputs
  const inputs: Input[] = [];
  if (!values['no-generated']) {
    const sizes = values.sizes
      .split(',')
      .filter((s) => s.trim().length > 0)
      .map((s) => parseCount(s, '--sizes'));
    const outDir = path.join(HERE, 'out');
    mkdirSync(outDir, { recursive: true });
    for (const n of sizes) {
      const racyTag = Number(gen.racy) === 0.004 ? '' : `-r${gen.racy}`;
      const params = `t${gen.threads}-v${gen.vars}-l${gen.locks}-vol${gen.volatiles}${racyTag}-s${gen.seed}`;
      const name = `gen-${fmtCount(n)}-${params}.trace`;
      const file = path.join(outDir, name);
      if (!existsSync(file)) {
        process.stderr.write(`generating ${path.relative(ROOT, file)} ...\n`);
        await runNode(
          path.join(HERE, 'generate.ts'),
          [
            ...['--events', String(n), '--threads', String(gen.threads), '--vars', String(gen.vars)],
            ...[
              '--locks',
              String(gen.locks),
              '--volatiles',
              String(gen.volatiles),
              '--seed',
              String(gen.seed),
            ],
            ...['--racy', gen.racy, '--out', file],
          ],
          { echoStderr: true },
        );
      }
      inputs.push({
        label: `generated ${fmtCount(n)}`,
        file,
        events: n,
        generated: true,
        pipeline: modes[0],
      });
    }
  }
  if (values.real) {
    const dir = values['real-dir'];
    if (!existsSync(dir)) process.stderr.write(`--real: ${dir} is absent; skipping the real traces\n`);
    else
      for (const f of values['real-files'].split(',').filter((s) => s.length > 0)) {
        const file = path.join(dir, f);
        if (existsSync(file))
          inputs.push({
            label: f.replace(/\.trace(\.gz)?$/, ''),
            file,
            generated: false,
            pipeline: modes[0],
          });
        else process.stderr.write(`--real: ${file} is absent; skipping it\n`);
      }
  }
  if (inputs.length === 0) throw new Error('no inputs');
  if (values.binary) {
    for (let i = inputs.length - 1; i >= 0; i--)
      inputs.splice(i + 1, 0, await convertedInput(inputs[i], 'bin'));
  }
  if (values.ext) {
    for (let i = inputs.length - 1; i >= 0; i--)
      if (!inputs[i].generated && inputs[i].binaryOf === undefined)
        inputs.splice(i + 1, 0, await convertedInput(inputs[i], 'ext'));
  }
  if (modes.length > 1) {
    // one input per mode, side by side; a binary input pairs with its text input of the same mode
    const variants = inputs.flatMap((input) =>
      modes.map((pipeline) => ({ ...input, pipeline, label: `${input.label} [pipeline ${pipeline}]` })),
    );
    for (const v of variants)
      if (v.binaryOf !== undefined)
        v.binaryOf = variants.find((t) => t.file === v.binaryOf!.file && t.pipeline === v.pipeline);
    inputs.splice(0, inputs.length, ...variants);
  }

  // runs: per input, detectors in the order given, except eager last (its event-count gate needs a count)
  const rows: Row[] = [];
  const order = [...detectors.filter((d) => d !== 'eager'), ...detectors.filter((d) => d === 'eager')];
  const t0 = Date.now();
  for (const input of inputs) {
    let known = input.events;
    const byDet = new Map<string, Row>();
    for (const det of order) {
      const row: Row = { input, detector: det };
      byDet.set(det, row);
      if (det === 'eager' && (known === undefined || known > EAGER_MAX_EVENTS)) {
        row.note = `skipped (eager runs only on <= ${fmtCount(EAGER_MAX_EVENTS)} events)`;
        process.stderr.write(`${input.label}: eager ${row.note}\n`);
        continue;
      }
      const runs: RunResult[] = [];
      for (let i = 0; i < repeat; i++) {
        try {
          const args = [
            det,
            input.file,
            '--pipeline',
            input.pipeline,
            ...(values.lenient ? ['--lenient'] : []),
          ];
          const stdout = await runNode(path.join(HERE, 'run-one.ts'), args, { nodeArgs });
          const r = JSON.parse(stdout.trim().split('\n').pop() ?? '') as RunResult;
          runs.push(r);
          known = r.events;
          process.stderr.write(
            `${input.label}: ${det} run ${i + 1}/${repeat}: ${(r.timeMs / 1000).toFixed(2)} s, ` +
              `${mevs(r.eventsPerSec)} M events/s, ${(r.maxRSSKiB / 1024).toFixed(0)} MiB, ` +
              `${r.racyEvents} racy events, ${r.racyVars} racy vars, ${r.reading}\n`,
          );
        } catch (e) {
          row.note = `failed: ${(e as Error).message}`;
          process.stderr.write(`${input.label}: ${det} ${row.note}\n`);
          break;
        }
      }
      if (runs.length === repeat) {
        const timeMs = median(runs.map((r) => r.timeMs));
        row.result = {
          ...runs[0],
          timeMs,
          eventsPerSec: runs[0].events / (timeMs / 1000),
          maxRSSKiB: median(runs.map((r) => r.maxRSSKiB)),
        };
        if (runs.some((r) => r.racyEvents !== runs[0].racyEvents || r.racyVars !== runs[0].racyVars))
          row.note = 'verdict counts differ between runs';
        if (runs.some((r) => r.reading !== runs[0].reading)) row.note = 'read differently between runs';
        if (runs[0].warnings > 0) row.note = `${runs[0].warnings} infeasibility warnings (--lenient)`;
      }
    }
    for (const det of detectors) rows.push(byDet.get(det)!);
  }

  // the baseline of the memory comparison: a process that reads a one-event trace
  let baselineKiB: number | undefined;
  if (inputs.filter((i) => i.generated && i.binaryOf === undefined && i.pipeline === modes[0]).length >= 2) {
    const file = path.join(HERE, 'out', 'baseline.trace');
    writeFileSync(file, 'T0|w(o0.f0)|L1\n');
    try {
      const stdout = await runNode(path.join(HERE, 'run-one.ts'), ['goldilocks', file], { nodeArgs });
      baselineKiB = (JSON.parse(stdout.trim().split('\n').pop() ?? '') as RunResult).maxRSSKiB;
    } catch (e) {
      process.stderr.write(`baseline run failed: ${(e as Error).message}\n`);
    }
  }
  const md = report(rows, inputs, detectors, repeat, gen, Date.now() - t0, baselineKiB);
  process.stdout.write(`\n${md}`);
  if (values.out !== undefined) {
    appendFileSync(values.out, `${md}\n`);
    process.stderr.write(`appended to ${values.out}\n`);
  }
}

function report(
  rows: Row[],
  inputs: Input[],
  detectors: string[],
  repeat: number,
  gen: { threads: number; vars: number; locks: number; volatiles: number; seed: number; racy: string },
  wallMs: number,
  baselineKiB: number | undefined,
): string {
  const lines: string[] = [];
  lines.push(`## Goldilocks benchmark, ${new Date().toISOString()}`, '');
  lines.push(`Machine: ${describeMachine()}.`);
  lines.push(
    `Each figure: median of ${repeat} run${repeat > 1 ? 's' : ''}, each in a fresh process; ` +
      'time = parse + detect ' +
      '(streaming, without Node startup); peak RSS = the whole process (`process.resourceUsage().maxRSS`).',
  );
  if (inputs.some((i) => i.generated))
    lines.push(
      `Generated traces (bench/generate.ts): ${gen.threads} worker threads, ${gen.vars} variables, ` +
        `${gen.locks} locks, ` +
        `${gen.volatiles} volatiles, racy rate ${gen.racy}, seed ${gen.seed}.`,
    );
  lines.push(`Wall time of the benchmark: ${(wallMs / 1000).toFixed(0)} s.`, '');
  lines.push(
    '| input | events | detector | time s | M events/s | peak RSS MiB | racy events | racy vars ' +
      '| time / goldilocks | reading |',
  );
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---|');
  for (const row of rows) {
    const r = row.result;
    const events =
      r?.events ?? row.input.events ?? rows.find((x) => x.input === row.input && x.result)?.result?.events;
    const ev = events === undefined ? '' : events.toLocaleString('en-US');
    if (r === undefined) {
      lines.push(`| ${row.input.label} | ${ev} | ${row.detector} | ${row.note ?? ''} | | | | | | |`);
      continue;
    }
    const g = rows.find((x) => x.input === row.input && x.detector === 'goldilocks')?.result;
    const ratio = g === undefined ? '' : `${(r.timeMs / g.timeMs).toFixed(2)}×`;
    const note = row.note === undefined ? '' : ` (${row.note})`;
    lines.push(
      `| ${row.input.label} | ${ev} | ${row.detector}${note} | ${(r.timeMs / 1000).toFixed(2)} | ` +
        `${mevs(r.eventsPerSec)} | ${(r.maxRSSKiB / 1024).toFixed(0)} | ` +
        `${r.racyEvents.toLocaleString('en-US')} | ${r.racyVars.toLocaleString('en-US')} | ${ratio} | ` +
        `${r.reading} |`,
    );
  }

  // memory scaling between the smallest and the largest generated trace
  const gens = inputs.filter(
    (i) =>
      i.generated && i.binaryOf === undefined && i.events !== undefined && i.pipeline === inputs[0].pipeline,
  );
  if (gens.length >= 2) {
    const small = gens.reduce((a, b) => (b.events! < a.events! ? b : a));
    const large = gens.reduce((a, b) => (b.events! > a.events! ? b : a));
    if (large.events! > small.events!) {
      lines.push(
        '',
        `Peak RSS, ${fmtCount(large.events!)} vs ${fmtCount(small.events!)} events ` +
          `(${(large.events! / small.events!).toFixed(0)}× the events, same variables)` +
          (baselineKiB === undefined
            ? ':'
            : `; in parentheses, above the ${mib(baselineKiB)} MiB of a process reading a one-event trace:`),
        '',
      );
      const dets = [...detectors].sort((a, b) => (a === 'goldilocks' ? -1 : b === 'goldilocks' ? 1 : 0));
      for (const d of dets) {
        const a = rows.find((x) => x.input === small && x.detector === d)?.result;
        const b = rows.find((x) => x.input === large && x.detector === d)?.result;
        if (a === undefined || b === undefined) continue;
        let above = '';
        if (baselineKiB !== undefined && a.maxRSSKiB > baselineKiB) {
          const x = b.maxRSSKiB - baselineKiB;
          const y = a.maxRSSKiB - baselineKiB;
          above = ` (${mib(x)} / ${mib(y)} MiB = ${(x / y).toFixed(2)}×)`;
        }
        // split reading adds a parser thread (an isolate, symbol tables of its own) to what one parser thread costs
        const unlike =
          a.reading === b.reading
            ? ''
            : ` — not comparable: read ${b.reading === 'split' ? 'split' : `by ${b.reading}`} against ` +
              `${a.reading === 'split' ? 'split' : `by ${a.reading}`}; compare runs with one --pipeline mode (on, off)`;
        lines.push(
          `- ${d}: ${mib(b.maxRSSKiB)} / ${mib(a.maxRSSKiB)} MiB = ` +
            `${(b.maxRSSKiB / a.maxRSSKiB).toFixed(2)}×${above}${unlike}`,
        );
      }
    }
  }
  const mibOf = (file: string) => (statSync(file).size / 2 ** 20).toFixed(1);
  const binaries = inputs.filter((i) => i.binaryOf !== undefined);
  if (binaries.length > 0)
    lines.push('', 'Binary format against text: time of the text run / time of the binary run.', '');
  for (const b of binaries) {
    const text = b.binaryOf!;
    const speedups: string[] = [];
    for (const d of detectors) {
      const t = rows.find((x) => x.input === text && x.detector === d)?.result;
      const r = rows.find((x) => x.input === b && x.detector === d)?.result;
      if (t !== undefined && r !== undefined) speedups.push(`${d} ${(t.timeMs / r.timeMs).toFixed(2)}×`);
    }
    lines.push(
      `- ${text.label} (${mibOf(text.file)} MiB text, ${mibOf(b.file)} MiB binary): ${speedups.join(', ')}`,
    );
  }
  const sizes = inputs
    .filter((i) => !i.generated)
    .map((i) => `${i.label}: ${path.basename(i.file)}, ${mibOf(i.file)} MiB`);
  if (sizes.length > 0) lines.push('', `Real traces: ${sizes.join('; ')}.`);
  lines.push('');
  return lines.join('\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exit(1);
});
