// expect: no race
// idiom: goldilocks/stm: PLDI'07 Example 3: a Foo initialized thread-locally, published into a transactional list, updated in transactions by another worker, removed and then used thread-locally by a third
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

// heap: [0] the list's head (a slot index, 0 = empty), slot k ≥ 1 at [2k] = data, [2k + 1] = next
const { main, joined, who, at, stm, heap } = workers(import.meta.url, ['init', 'update', 'use'], () => ({
  stm: new STM().handle,
  heap: new Int32Array(new SharedArrayBuffer(64)),
}));
if (main) {
  await joined;
} else {
  const s = STM.from(stm);
  if (who === 'init') {
    at(0, () => {
      heap[2] = 7; // a new Foo in slot 1, thread-local
      heap[3] = 0;
      s.atomic((tx) => tx.write(heap, 0, 1)); // published: head = slot 1
    });
  } else if (who === 'update') {
    at(1, () =>
      s.atomic((tx) => {
        const foo = tx.read(heap, 0);
        if (foo !== 0) tx.write(heap, 2 * foo, tx.read(heap, 2 * foo) + 1);
      }),
    );
  } else {
    at(2, () => {
      const foo = s.atomic((tx) => {
        const f = tx.read(heap, 0);
        if (f !== 0) tx.write(heap, 0, tx.read(heap, 2 * f + 1)); // removed from the list
        return f;
      });
      heap[2 * foo] *= 2; // thread-local again
      if (heap[2 * foo] !== 16) throw new Error(`foo ${heap[2 * foo]}`);
    });
  }
}
