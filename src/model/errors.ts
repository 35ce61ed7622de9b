/**
 * A bad input: a malformed line or record, or an infeasible event (see engine/feasibility.ts). Carries what a
 * person needs to fix it: file, position, the text, what was expected. The CLI prints `message` (never a
 * stack) and exits with code 2.
 *
 * Position: in a text trace, `line` and `column` are 1-based and `text` is the line. In a binary trace
 * (docs/FORMATS.md, "Binary format") a syntax error has `offset`, the byte offset of the bad byte in the
 * (uncompressed) input, `line` the 1-based record number, and `text` a hex dump of the record with `column`
 * pointing at the bad byte; an infeasible event of a binary trace has `line` = its 1-based event number.
 */
export class TraceError extends Error {
  override name = 'TraceError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly text: string,
    readonly expected: string,
    readonly kind: 'syntax' | 'infeasible' = 'syntax',
    readonly offset?: number,
  ) {
    const where =
      offset === undefined ? `${file}:${line}:${column}` : `${file}: byte ${offset} (record ${line})`;
    super(
      `${where}: ${kind === 'syntax' ? 'syntax error' : 'infeasible trace'}: ${expected}\n    ${text}\n    ${' '.repeat(Math.max(0, column - 1))}^`,
    );
  }
}
