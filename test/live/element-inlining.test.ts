/**
 * The element hooks' slow path (`element` in `src/live/views.ts`) must stay over V8's size limit for inlining
 * (`--max-inlined-bytecode-size`): otherwise the fast path `r`/`w`, optimized on its own, inlines it, and V8 charges
 * those bytecodes to every function that would inline the fast path, which then inlines it nowhere (moldyn's force
 * loop ran 1.6× slower). The limit is read from `node --v8-options`, the length from `--print-bytecode`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, tempFile } from '../helpers/helpers.js';

/** The default of the V8 flag `name` (an integer), from `node --v8-options`. */
function v8Default(name: string): number {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  const m = new RegExp(`--${name}=(\\d+)`).exec(options);
  assert.ok(m, `node --v8-options names no default of --${name}`);
  return Number(m[1]);
}

test("the element slow path is over V8's inlining limit", { timeout: 60_000 }, () => {
  // one element read and write outside any covered run: both hooks and the slow path run, so V8 compiles them (the
  // buffer posted first: a buffer its thread has not sent is private, its accesses unchecked)
  const program = tempFile(
    'element-inlining.mjs',
    'const a = new Float64Array(new SharedArrayBuffer(16));\nnew MessageChannel().port1.postMessage(a);\n' +
      'a[1] = 2;\nconsole.log(a[1]);\n',
  );
  const out = execFileSync(
    process.execPath,
    [
      '--print-bytecode',
      '--print-bytecode-filter=element',
      '--import',
      join(ROOT, 'dist', 'node', 'register.js'),
      program,
    ],
    // the main thread alone takes no slow path (src/live/alone.ts): checked here
    { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, GOLDILOCKS_ALONE: '0' } },
  );
  const lengths = [...out.matchAll(/Bytecode length: (\d+)/g)].map((m) => Number(m[1]));
  assert.ok(lengths.length > 0, 'element was compiled');
  const limit = v8Default('max-inlined-bytecode-size');
  for (const length of lengths)
    assert.ok(length > limit, `element has ${length} bytes of bytecode, limit ${limit}`);
});
