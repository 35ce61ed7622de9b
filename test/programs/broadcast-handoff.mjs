// expect: no race
// idiom: BroadcastChannel hand-off: a writes, then broadcasts a fresh SharedArrayBuffer; b and main read on 'message'.
import { isMainThread, BroadcastChannel as WorkerBroadcastChannel, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

const NAME = 'broadcast-handoff';
if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const ch = new BroadcastChannel(NAME); // the global one; the workers use worker_threads'
  const got = new Promise((resolve) => {
    ch.onmessage = (e) => {
      resolve([data[0], new Int32Array(e.data)[0]]);
      ch.close();
    };
  });
  const a = spawn(import.meta.url, { sched: s.buffer, data, who: 'a' });
  const b = spawn(import.meta.url, { sched: s.buffer, data, who: 'b' });
  // joined before the channel's message is awaited: nothing orders that message before the workers' 'exit' events,
  // which a later listener would miss (the process then ends with its top-level await unsettled, exit 13)
  const joined = Promise.all([join(a), join(b)]);
  const [seen, fresh] = await got;
  await joined;
  if (seen !== 5 || fresh !== 6) throw new Error(`main saw ${seen}, ${fresh}`);
} else {
  const { at, step } = schedule(workerData.sched);
  const { data, who } = workerData;
  const ch = new WorkerBroadcastChannel(NAME);
  if (who === 'a') {
    step(1); // b's channel exists (main's existed before a was spawned)
    data[0] = 5;
    const fresh = new Int32Array(new SharedArrayBuffer(4));
    fresh[0] = 6;
    ch.postMessage(fresh.buffer);
    ch.close();
  } else {
    ch.onmessage = (e) => {
      const fresh = new Int32Array(e.data);
      if (data[0] !== 5 || fresh[0] !== 6) throw new Error(`b saw ${data[0]}, ${fresh[0]}`);
      ch.close();
    };
    at(0, () => {});
  }
}
