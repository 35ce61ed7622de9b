import fc from 'fast-check';
import { disagreements, feasibleTrace, oracleVerdicts } from './gen.js';

const s = fc.sample(feasibleTrace(), { numRuns: 2000, seed: 1 });
let racy = 0,
  ev = 0,
  bad = 0;
for (const t of s) {
  ev += t.events;
  if (oracleVerdicts(t.text).size > 0) racy++;
  const d = disagreements(t.text);
  if (d.length) {
    bad++;
    if (bad < 3) console.log(d, t.text);
  }
}
console.log({ racy, n: s.length, avgEvents: ev / s.length, bad });
console.log(s[5].text);
const t0 = performance.now();
for (const t of s.slice(0, 1000)) disagreements(t.text);
console.log('ms/1000', performance.now() - t0);
