import { writeSync } from 'node:fs';

/** Milliseconds to wait before retrying a write that a full non-blocking pipe refused (EAGAIN). */
const RETRY_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all bytes of `data` to file descriptor `fd`, synchronously. `fs.writeSync` alone may write only part
 * of the bytes, or throw EAGAIN, when `fd` is a non-blocking pipe (standard output read by a slower process):
 * this retries the rest, sleeping 1 ms after each EAGAIN.
 * @throws Error from `fs.writeSync` other than EAGAIN (EPIPE, ENOSPC, EBADF, ...).
 */
export function writeAll(fd: number, data: Uint8Array): void {
  for (let at = 0; at < data.length; ) {
    try {
      at += writeSync(fd, data, at, data.length - at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(sleeper, 0, 0, RETRY_MS);
    }
  }
}
