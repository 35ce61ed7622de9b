// expect: race
// idiom: crypt's block loop with an inner loop of literal bounds over subkeys (see range-loop-lanes.mjs), racing:
// a writes subkey 5 unordered; b's loop reads it in its first block's inner loop (round 1, `key[ik++]`): the range
// check would report a race, so the loop runs its per-access checks, which throw there under --on-race=throw,
// before the block's bytes are written.
import { workers } from './sched.mjs';

const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;

/** Blocks [lo, hi) of text1 into text2 with the 8 subkeys of key. */
function cipher(text1, text2, key, lo, hi) {
  for (let blk = lo; blk < hi; blk++) {
    const i = 4 * blk;
    let x1 = text1[i] | (text1[i + 1] << 8);
    let x2 = text1[i + 2] | (text1[i + 3] << 8);
    let ik = 0;
    for (let r = 0; r < 2; r++) {
      x1 = (x1 + key[ik++]) & 0xffff;
      x2 = (x2 ^ key[ik++]) & 0xffff; // race
      x1 = (x1 * 3 + key[ik++]) & 0xffff;
      x2 = (x2 + key[ik++] + x1) & 0xffff;
    }
    text2[i] = x1;
    text2[i + 1] = x1 >>> 8;
    text2[i + 2] = x2;
    text2[i + 3] = x2 >>> 8;
  }
}

const { main, joined, i, at, text1, text2, key } = workers(import.meta.url, 2, () => ({
  text1: new Uint8Array(new SharedArrayBuffer(32)).fill(3),
  text2: new Uint8Array(new SharedArrayBuffer(32)),
  key: new Int32Array(new SharedArrayBuffer(32)).fill(1),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    key[5] = 9; // race
  });
} else {
  at(1, () => {
    try {
      cipher(text1, text2, key, 0, 8);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      const words = new Int32Array(text2.buffer);
      let written = 0;
      for (let k = 0; k < words.length; k++) written |= raw.load(words, k);
      if (written !== 0) throw new Error('thrown after a block was written');
      console.log('thrown in the first block, before its bytes were written');
    }
  });
}
