/**
 * `goldilocks/annotations` (issue 25 §2): what a program tells the detector about synchronization it cannot see —
 * the atomics of WebAssembly code, a native addon's locks, an OS pipe — and about races it accepts, in the manner
 * of ThreadSanitizer's dynamic annotations (`ANNOTATE_HAPPENS_BEFORE`, `ANNOTATE_HAPPENS_AFTER`,
 * `ANNOTATE_BENIGN_RACE_SIZED`; compiler-rt `tsan_interface_ann.cpp`).
 *
 * Outside the runtime (plain node) every annotation is a no-op after checking its arguments; under
 * `goldilocks run` (or `node --require goldilocks/register`) they reach the runtime through `./observer.ts`.
 *
 * ```js
 * import { happensAfter, happensBefore } from 'goldilocks/annotations';
 * // producer                                   // consumer
 * data[0] = 42;                                 wasm.exports.waitReady();   // i32.atomic.wait in WebAssembly
 * happensBefore('ready');                       happensAfter('ready');
 * wasm.exports.setReady();  // i32.atomic.store  console.log(data[0]);      // no race reported
 * ```
 */
import { observer } from './observer.js';

/**
 * Declares that what this thread did so far happens before whatever a thread does after a later
 * {@link happensAfter} of the same `key`: a release of the pseudo-variable `key` (the Goldilocks model's volatile
 * write, PLDI'07 §3; ThreadSanitizer's `ANNOTATE_HAPPENS_BEFORE`). Call it right before the invisible operation
 * that lets another thread go on. Every `happensBefore(key)` is ordered before every later `happensAfter(key)`.
 * @param key names the pseudo-variable in every thread and process of the run (a string; numbers are converted).
 */
export function happensBefore(key: string): void {
  observer?.happensBefore(String(key));
}

/**
 * Declares that what this thread does from now on happens after every earlier {@link happensBefore} of the same
 * `key`: an acquire of the pseudo-variable `key` (a volatile read; ThreadSanitizer's `ANNOTATE_HAPPENS_AFTER`).
 * Call it right after the invisible operation that let this thread go on.
 */
export function happensAfter(key: string): void {
  observer?.happensAfter(String(key));
}

/**
 * Declares the elements [index, index + length) of `view` (bytes for a DataView) as racing benignly, for
 * `reason`: a race whose first racing byte is one of them is never reported nor thrown for; it is counted in the
 * report's `summary.benign` and per reason in `benign` (ThreadSanitizer's `ANNOTATE_BENIGN_RACE_SIZED`). For all
 * threads, from now to the end of the run. A view over memory that is not shared is left alone (it cannot race).
 * @param index first element (default 0); @param length elements (default: to the view's end).
 * @throws TypeError when `view` is not a typed array or DataView; RangeError when the range is not inside it.
 */
export function benignRace(view: ArrayBufferView, index = 0, length?: number, reason = ''): void {
  if (!ArrayBuffer.isView(view)) throw new TypeError('benignRace: expected a typed array or a DataView');
  const bpe = (view as Partial<Int32Array>).BYTES_PER_ELEMENT ?? 1;
  const elements = view.byteLength / bpe;
  const n = length ?? elements - index;
  if (!Number.isInteger(index) || !Number.isInteger(n) || index < 0 || n < 0 || index + n > elements)
    throw new RangeError(
      `benignRace: elements [${index}, ${index + n}) are not inside the view of ${elements}`,
    );
  if (observer === undefined || n === 0 || !(view.buffer instanceof SharedArrayBuffer)) return;
  observer.benignRace(view.buffer, view.byteOffset + index * bpe, n * bpe, String(reason));
}

export { type AnnotationObserver, setAnnotationObserver } from './observer.js';
