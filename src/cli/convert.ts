/**
 * `goldilocks convert`: rewrites a trace in RAPID STD, the extended format or the binary format
 * (docs/FORMATS.md), as it is read. Loaded by `./main.cts` when the command runs.
 */
import { closeSync, openSync } from 'node:fs';
import { TraceError } from '../model/errors.js';
import { Symbols } from '../model/symbols.js';
import { BinaryWriter } from '../trace/binary-writer.js';
import { type Format, readTrace } from '../trace/reader.js';
import { writeAll } from '../trace/write-all.js';
import { formatEvent } from '../trace/writer.js';
import { EXIT_OK } from './options.js';
import { readableFile, UsageError, writableFile } from './usage.js';

export type ConvertTo = 'std' | 'ext' | 'bin';

export async function convert(
  input: string,
  flags: { from: Format; to: ConvertTo; output?: string },
): Promise<number> {
  // `-o -` is standard output, as `-` is standard input
  const toStdout = flags.output === undefined || flags.output === '-';
  if (flags.to === 'bin' && toStdout && process.stdout.isTTY === true)
    throw new UsageError(
      '--to: binary output to a terminal (expected -o FILE or standard output redirected to a file or pipe)',
    );
  if (input !== '-') readableFile(input, 'trace', 'a trace file, or - for standard input');
  if (!toStdout) writableFile(flags.output as string, '--output');
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
