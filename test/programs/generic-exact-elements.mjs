// expect: no race
// idiom: the generic built-ins read only the elements they touch: destructuring of element 0 and length, Object.assign of element 1, JSON.stringify with a property list, util.inspect up to maxArrayLength, Array.prototype.indexOf stopping early, Array.prototype.reverse (the middle element stays), Buffer#indexOf stopping at its match: none touches element 3, which a worker writes concurrently.
import { inspect } from 'node:util';
import { workers } from './sched.mjs';

const { main, joined, at, data } = workers(import.meta.url, 1, () => {
  const data = new Uint8Array(new SharedArrayBuffer(7));
  data.set([1, 2, 9, 0, 5, 6, 7]);
  return { data };
});
if (main) {
  const seen = at(1, () => {
    const { 0: first, length } = data;
    Object.assign(data, { 1: 4, 10: 1 });
    const bytes = Buffer.from(data.buffer);
    return [
      first,
      length,
      JSON.stringify(data, ['0', '1', 2]),
      inspect(data, { maxArrayLength: 3 }),
      Array.prototype.indexOf.call(data, 9),
      Array.prototype.reverse.call(data) === data,
      data[0],
      data[6],
      bytes.indexOf(6),
      bytes.lastIndexOf(4),
      bytes.includes(7),
    ];
  });
  await joined;
  const expected = '1,7,{"0":1,"1":4,"2":9},Uint8Array(7) [ 1, 4, 9, ... 4 more items ],2,true,7,1,1,5,true';
  if (seen.join() !== expected) throw new Error(`saw ${seen}`);
} else {
  at(0, () => {
    data[3] = 3; // the element none of the built-ins above touches
  });
}
