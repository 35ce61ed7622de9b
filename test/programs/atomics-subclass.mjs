// expect: no race
// idiom: views that are instances of TypedArray subclasses whose constructors take other arguments (@zenfs/core's structs): every Atomics operation and the intercepted bulk methods on them run as under node, and the constructors run only when the program calls them.
import { workers } from './sched.mjs';

let shared;
let made = 0;
/** A struct over `shared` at a byte offset: `new Word(1)` is not a view of one element. */
class Word extends Int32Array {
  constructor(offset) {
    super(shared, offset, 4);
    made++;
  }
}
/** Buffer and offset first, a fixed length third; species methods (slice) call it with a length. */
class Big extends BigUint64Array {
  constructor(buffer, offset) {
    super(buffer, offset, 4);
    made++;
  }
}

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(64),
}));
if (main) {
  await joined;
} else {
  shared = buffer;
  const flag = new Word(0);
  const data = new Word(16);
  const big = new Big(shared, 32);
  const check = (what, got, want) => {
    if (got !== want) throw new Error(`${what}: ${got} (expected ${want})`);
  };
  if (i === 0) {
    at(0, () => {
      data.fill(7, 0, 2);
      data.set([1, 2], 2);
      data.copyWithin(1, 2, 3);
      big.fill(5n, 1);
      check('add', Atomics.add(big, 0, 3n), 0n);
      check('sub', Atomics.sub(big, 0, 1n), 3n);
      check('and', Atomics.and(big, 0, 6n), 2n);
      check('or', Atomics.or(big, 0, 1n), 2n);
      check('xor', Atomics.xor(big, 0, 4n), 3n);
      check('exchange', Atomics.exchange(big, 0, 9n), 7n);
      check('failed compareExchange', Atomics.compareExchange(big, 0, 8n, 1n), 9n);
      check('notify', Atomics.notify(flag, 0, 1), 0);
      Atomics.store(flag, 0, 1); // publishes data and big
    });
  } else {
    at(1, () => {
      check('compareExchange', Atomics.compareExchange(flag, 0, 1, 2), 1); // acquires what thread 0 wrote
      check('load', Atomics.load(big, 0), 9n);
      check('wait', Atomics.wait(flag, 0, 0, 0), 'not-equal');
      check('waitAsync', Atomics.waitAsync(flag, 0, 0, 0).value, 'not-equal');
      check('join', data.join(), '7,1,1,2');
      check('indexOf', data.indexOf(2), 3);
      check('spread', [...big].join(), '9,5,5,5');
      const copy = big.slice(1, 3); // the species constructor: new Big(2), a fresh array of 2 elements
      check('slice', `${copy.constructor.name} ${copy.join()}`, 'Big 5,5');
      big.fill(0n, 1);
    });
  }
  check('constructor calls', made, i === 0 ? 3 : 4);
}
