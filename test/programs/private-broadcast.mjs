// expect: race
// idiom: escape analysis: a worker fills a fresh SharedArrayBuffer, broadcasts it on a BroadcastChannel, then writes it; the other worker reads its copy on 'message' (same memory).
import { BroadcastChannel } from 'node:worker_threads';
import { workers } from './sched.mjs';

const { main, joined, who, at, step } = workers(import.meta.url, ['sender', 'receiver'], () => ({}));
if (main) await joined;
else if (who === 'sender') {
  const channel = new BroadcastChannel('private-broadcast');
  step(1); // the receiver's channel exists
  const data = new Int32Array(new SharedArrayBuffer(64));
  for (let i = 0; i < data.length; i++) data[i] = 7;
  channel.postMessage(data);
  channel.close();
  at(2, () => {
    data[5] = 9; // race
  });
} else {
  const channel = new BroadcastChannel('private-broadcast');
  channel.onmessage = (e) => {
    const seen = at(1, () => e.data[5]); // race
    if (seen !== 7) throw new Error(`saw ${seen}`);
    channel.close();
  };
  at(0, () => {});
}
