// Driver of esbuild's synchronous API: `transformSync` in Node is served by a worker thread that esbuild starts
// and waits for with `Atomics.wait` on a SharedArrayBuffer, taking the answer with `receiveMessageOnPort`
// (race-free: goldilocks must report nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transformSync } from 'esbuild';

test('100 TypeScript and JSX transforms return their own code', () => {
  for (let i = 0; i < 100; i++) {
    const ts = transformSync(`const n${i}: number = ${i}; export const f = (x: number) => x + n${i};`, {
      loader: 'ts',
      format: 'esm',
    });
    assert.match(ts.code, new RegExp(`const n${i} = ${i};`));
    assert.doesNotMatch(ts.code, /: number/);
    const jsx = transformSync(`export const e = <div id="d${i}">{${i}}</div>;`, { loader: 'jsx' });
    assert.match(jsx.code, new RegExp(`React.createElement\\("div", \\{ id: "d${i}" \\}, ${i}\\)`));
  }
});

test('a syntax error is thrown in the caller', () => {
  assert.throws(() => transformSync('let = ;', { loader: 'js' }), /Transform failed with 1 error/);
});
