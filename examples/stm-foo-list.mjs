// Example 3 of the PLDI'07 paper (§5.3) with real software transactions (goldilocks/stm): worker `init` makes a
// Foo thread-locally and publishes it into a transactional list; worker `update` updates it in transactions;
// worker `use` removes it in a transaction and then uses it thread-locally. Ownership passes through the
// transactions that touch the list's head (rule 9): no race.
//   npx goldilocks run examples/stm-foo-list.mjs
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { STM } from 'goldilocks/stm';

// heap: [0] the list's head (a slot, 0 = empty), [1] the updates made; a Foo in slot k: [2k] data, [2k + 1] next.
const HEAD = 0;
const UPDATES = 1;
const FOO = 1;
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

if (isMainThread) {
  const data = { heap: new Int32Array(new SharedArrayBuffer(64)), stm: new STM().handle };
  for (const role of ['init', 'update', 'use']) {
    const w = new Worker(new URL(import.meta.url), { workerData: { ...data, role } });
    w.on('error', (e) => console.log(`[${role}] stopped by ${e.name}: ${e.message}`));
  }
} else {
  const { heap, role } = workerData;
  const stm = STM.from(workerData.stm);
  if (role === 'init') {
    heap[2 * FOO] = 7; // new Foo(): thread-local until published
    heap[2 * FOO + 1] = 0;
    stm.atomic((tx) => tx.write(heap, HEAD, FOO)); // list.insert(foo)
  } else if (role === 'update') {
    for (let done = 0; done < 3; await pause()) {
      const updated = stm.atomic((tx) => {
        const foo = tx.read(heap, HEAD);
        if (foo === 0) return false;
        tx.write(heap, 2 * foo, tx.read(heap, 2 * foo) + 1); // foo.data++ inside a transaction
        tx.write(heap, UPDATES, tx.read(heap, UPDATES) + 1);
        return true;
      });
      if (updated) done++;
    }
  } else {
    let foo = 0;
    while (foo === 0) {
      foo = stm.atomic((tx) => {
        const f = tx.read(heap, HEAD);
        if (f === 0 || tx.read(heap, UPDATES) < 3) return 0;
        tx.write(heap, HEAD, tx.read(heap, 2 * f + 1)); // list.remove(foo)
        return f;
      });
      if (foo === 0) await pause();
    }
    heap[2 * foo] *= 2; // thread-local again
    console.log(`foo.data = ${heap[2 * foo]}`);
  }
}
