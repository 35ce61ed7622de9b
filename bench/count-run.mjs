// The run bench/instructions.ts counts under valgrind: `checkFile` of the compiled build in DIST on FILE with the
// detector (`none`: the parse and the engine alone), read in this thread. Plain JavaScript, so that no loader
// thread runs beside it. Usage: node --single-threaded bench/count-run.mjs DIST FILE DETECTOR
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, file, detector] = process.argv.slice(2);
const { checkFile } = await import(pathToFileURL(path.join(dist, 'check.js')).href);
const r = await checkFile(file, { detectors: detector === 'none' ? [] : [detector], pipeline: 'off' });
console.log(r.engine.events);
