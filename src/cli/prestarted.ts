/**
 * The check's side of the parser thread the executable started before it loaded the check (`./prestart.ts`, issue 24
 * §3): {@link adoptPrestarted} hands it to the check's own modules, which `./prestart.ts` does not share (it is loaded
 * apart from the check's bundle, `./check-bundle.ts`): the thread to `ParserThread.adopt` (trace/pipeline.ts), whence
 * `checkFile` takes it, and the processors' sample to `startCoreSample` (trace/reading.ts), whence `coreIsFree` takes it.
 */
import type { Prestarted } from './prestart.js';

/** The parser thread's module once {@link adoptPrestarted} has adopted the thread (undefined: none adopted). */
let adopted: Promise<typeof import('../trace/pipeline.js') | undefined> | undefined;

/** Adopts what `./prestart.ts` started, if anything (its modules load asynchronously: {@link prestarted}). */
export function adoptPrestarted(p: Prestarted | undefined): void {
  if (p === undefined) return;
  adopted = (async () => {
    const [pipeline, reading] = await Promise.all([
      import('../trace/pipeline.js'),
      import('../trace/reading.js'),
    ]);
    pipeline.ParserThread.adopt(p.parser);
    reading.startCoreSample(p.coreSample);
    return pipeline;
  })().catch(() => {
    p.parser.stop(); // then the check starts its thread itself
    return undefined;
  });
}

/**
 * Resolves once {@link adoptPrestarted} has adopted the thread (at once if none): what `check` awaits before it reads,
 * so that it finds the thread rather than starting a second one. Never rejects.
 */
export async function prestarted(): Promise<void> {
  await adopted;
}

/** Stops the adopted thread if `check` did not take it. */
export function dropPrestarted(): void {
  void adopted?.then((pipeline) => pipeline?.ParserThread.drop());
}
