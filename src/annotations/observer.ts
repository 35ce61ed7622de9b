/**
 * How the live runtime sees goldilocks/annotations (`./index.ts`), as it sees goldilocks/sync
 * (`../sync/observer.ts`): the runtime calls `setAnnotationObserver` in every thread (this module is instantiated
 * once per thread); the annotations then report to it. With no observer set (plain node), an annotation costs one
 * `if`.
 */

/** What the runtime does with each annotation (`../live/annotation-observer.ts`). */
export interface AnnotationObserver {
  /** A release on the pseudo-variable `key` (a volatile write: publish). */
  happensBefore(key: string): void;
  /** An acquire on the pseudo-variable `key` (a volatile read: subscribe). */
  happensAfter(key: string): void;
  /** Bytes [byteOffset, byteOffset + byteLength) of `buffer` race benignly, for `reason`. */
  benignRace(buffer: SharedArrayBuffer, byteOffset: number, byteLength: number, reason: string): void;
}

/** The observer of this thread (an ES live binding; assign through `setAnnotationObserver`). */
export let observer: AnnotationObserver | undefined;

/** Sets (or with `undefined`, removes) the observer of the calling thread. */
export function setAnnotationObserver(o: AnnotationObserver | undefined): void {
  observer = o;
}
