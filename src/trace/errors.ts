/**
 * A bad input: a malformed line, or an infeasible event (see engine/feasibility.ts). Carries what a person
 * needs to fix it: file, 1-based line and column, the text, what was expected. The CLI prints `message`
 * (never a stack) and exits with code 2.
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
  ) {
    super(
      `${file}:${line}:${column}: ${kind === 'syntax' ? 'syntax error' : 'infeasible trace'}: ${expected}\n    ${text}\n    ${' '.repeat(Math.max(0, column - 1))}^`,
    );
  }
}
