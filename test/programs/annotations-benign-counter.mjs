// expect: no race
// idiom: an approximate statistics counter both workers bump without synchronization, annotated benignRace: never reported, counted as benign.
import { benignRace } from 'goldilocks/annotations';
import { workers } from './sched.mjs';

const { main, joined, i, at, hits } = workers(import.meta.url, 2, () => {
  const hits = new Int32Array(new SharedArrayBuffer(8));
  benignRace(hits, 0, 1, 'approximate hit counter');
  return { hits };
});
if (main) {
  await joined;
} else {
  at(i, () => {
    hits[0] += 1;
  });
}
