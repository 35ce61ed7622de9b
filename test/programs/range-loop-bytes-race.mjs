// expect: race
// idiom: elements smaller than a word, racing: a writes byte 9 of the buffer unordered; b's range-checked loop
// writes bytes 3-22 through a Uint8Array from byte 3, its element 6 being byte 9: the range check would report a
// race, so the loop runs its per-access checks, which throw at element 6 under --on-race=throw, after elements 0-5.
import { workers } from './sched.mjs';

const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;

/** u[j] = 5 for j < n. */
function fill(u, n) {
  for (let j = 0; j < n; j++) u[j] = 5; // race
}

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(64),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    new Uint8Array(buffer)[9] = 1; // race
  });
} else {
  at(1, () => {
    try {
      fill(new Uint8Array(buffer, 3, 20), 20);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      // the bytes read with the original Atomics (invisible to the detector)
      const words = new Int32Array(buffer);
      const copy = new Int32Array(words.length);
      for (let k = 0; k < words.length; k++) copy[k] = raw.load(words, k);
      const seen = [...new Uint8Array(copy.buffer, 0, 24)].join(',');
      if (seen !== '0,0,0,5,5,5,5,5,5,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0')
        throw new Error(`thrown with the bytes at ${seen}`);
      console.log('thrown at element 6, before its write');
    }
  });
}
