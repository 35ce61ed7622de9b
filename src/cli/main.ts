#!/usr/bin/env node
/**
 * `dist/cli/main.js`, for the callers that name it (tests, benchmarks, scripts): runs the `goldilocks` executable,
 * `./main.cts` (package.json `bin`), from an ES module. Its start pays for Node's ES module loader, which the
 * executable itself does not (see there).
 */
import './main.cjs';
