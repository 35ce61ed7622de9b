/**
 * The SARIF 2.1.0 log of a report (`--sarif FILE` of `goldilocks check` and `goldilocks run`; issue 25 §2), for
 * code-scanning services (GitHub, Azure DevOps) and editors: OASIS *Static Analysis Results Interchange Format
 * Version 2.1.0* (2020), the schema `sarif-2.1.0-rtm.5.json`; types from `@types/sarif`.
 *
 * One run per detector's report; one result per race as listed (per pair of source locations): the racing
 * (current) access as its location, with its stack when known; the previous access as related location 1; where
 * the racing memory was allocated, when the record has it, as related location 2. A location `file:line:column`
 * (the live form) or `file:line` becomes a physical location, file paths as URIs relative to the working directory
 * when inside it (`%SRCROOT%`), and RoadRunner's `File.java:method:line` also names its method as a logical
 * location; any other text is kept as the location's message.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { JsonRace, JsonReport } from './json.js';
import { parseLocation, parseStackLine } from './location.js';
import { accessWords } from './race.js';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = '%SRCROOT%';

/** Where the racing memory came from (`RaceRecord.allocation`, when the record carries it). */
interface Allocation {
  location: string;
  thread: string;
}

/** The rules: a proven race (precise detectors) and Eraser's lockset violation. */
const RULES: Sarif.ReportingDescriptor[] = [
  {
    id: 'data-race',
    name: 'DataRace',
    shortDescription: { text: 'Data race' },
    fullDescription: {
      text: 'Two accesses of different threads to the same memory, at least one a write and not both atomic, not ordered by happens-before (ECMA-262 §29; the Goldilocks lockset algorithm, PLDI 2007).',
    },
    defaultConfiguration: { level: 'error' },
  },
  {
    id: 'potential-data-race',
    name: 'PotentialDataRace',
    shortDescription: { text: 'Potential data race (Eraser lockset violation)' },
    fullDescription: {
      text: 'No lock consistently protects this memory (Eraser, Savage et al. 1997): a potential race, not a proven one.',
    },
    defaultConfiguration: { level: 'warning' },
  },
];

/**
 * The physical (and, for `File.java:method:line`, logical) location of a report's location text, relative to
 * `cwd`; the text as the message when it has no line.
 */
export function sarifLocation(text: string, cwd: string, message?: string): Sarif.Location {
  const out: Sarif.Location = message ? { message: { text: message } } : {};
  const { file, line, column, method } = parseLocation(text);
  if (line === undefined)
    return text === '' ? out : { ...out, message: { text: message ? `${message} (${text})` : text } };
  const artifactLocation: Sarif.ArtifactLocation = !path.isAbsolute(file)
    ? { uri: encodeURI(file.split(path.sep).join('/')), uriBaseId: SRCROOT }
    : path.relative(cwd, file).startsWith('..')
      ? { uri: pathToFileURL(file).href }
      : { uri: encodeURI(path.relative(cwd, file).split(path.sep).join('/')), uriBaseId: SRCROOT };
  const region: Sarif.Region = { startLine: line, ...(column ? { startColumn: column } : {}) };
  return {
    ...out,
    physicalLocation: { artifactLocation, region },
    ...(method ? { logicalLocations: [{ name: method, kind: 'function' }] } : {}),
  };
}

/** A V8 stack (`at f (file:1:2)` a line) as a SARIF stack. */
function stackOf(stack: string, cwd: string): Sarif.Stack {
  const frames: Sarif.StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const f = parseStackLine(line);
    if (!f) continue;
    const location = sarifLocation(f.location, cwd);
    if (f.fn) location.logicalLocations = [{ fullyQualifiedName: f.fn, kind: 'function' }];
    frames.push({ location });
  }
  return { message: { text: 'stack of the racing access' }, frames };
}

/** The result of one listed race of `report`. */
function resultOf(race: JsonRace, report: JsonReport, cwd: string): Sarif.Result {
  const memory = race.memory ? ` (${race.memory.elementType}, ${race.memory.size} bytes)` : '';
  const previous = `${race.precise ? 'previous' : 'last other'} ${accessWords(race.previous)}`;
  const text =
    `${race.precise ? 'Data race' : 'Potential data race'} on ${race.variable}${memory}: ${accessWords(race.current)} ` +
    `races with ${previous} at ${race.previous.location || '<no location>'}` +
    (race.count > 1 ? ` (this pair of locations raced ${race.count} times)` : '') +
    `. Decided by: ${race.detail}.`;
  const related: Sarif.Location[] = [{ id: 1, ...sarifLocation(race.previous.location, cwd, previous) }];
  const allocation = (race as JsonRace & { allocation?: Allocation }).allocation;
  if (allocation)
    related.push({
      id: 2,
      ...sarifLocation(allocation.location, cwd, `memory allocated by thread ${allocation.thread}`),
    });
  const pair = [race.current.location, race.previous.location].sort().join('|');
  return {
    ruleId: race.precise ? RULES[0].id : RULES[1].id,
    ruleIndex: race.precise ? 0 : 1,
    level: race.precise ? 'error' : 'warning',
    message: { text },
    locations: [sarifLocation(race.current.location, cwd, accessWords(race.current))],
    relatedLocations: related,
    ...(race.current.stack ? { stacks: [stackOf(race.current.stack, cwd)] } : {}),
    // stable across runs (no thread ids, no buffer ids): code scanning matches a race seen again by it
    partialFingerprints: { 'goldilocksLocationPair/v1': pair === '|' ? `variable:${race.variable}` : pair },
    properties: {
      detector: report.detector,
      variable: race.variable,
      count: race.count,
      ...(race.lockset ? { lockset: race.lockset } : {}),
    },
  };
}

/**
 * The SARIF log of `reports` (one run each), paths relative to `cwd`; `version` is goldilocks' version. Races left
 * out by `--max-reports`, suppressed or benign are not results: their counts are in each run's `properties`.
 */
export function sarifLog(reports: readonly JsonReport[], version: string, cwd = process.cwd()): Sarif.Log {
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: reports.map((report) => ({
      tool: {
        driver: {
          name: 'goldilocks',
          version,
          rules: RULES,
        },
      },
      originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(`${cwd}${path.sep}`).href } },
      invocations: [{ executionSuccessful: true }],
      results: report.races.map((race) => resultOf(race, report, cwd)),
      properties: {
        detector: report.detector,
        input: report.input.file,
        summary: report.summary,
        racesOmitted: report.racesOmitted,
        ...(report.suppressions ? { suppressions: report.suppressions } : {}),
        ...(report.benign ? { benign: report.benign } : {}),
      },
    })),
  };
}

/** Writes {@link sarifLog} of `reports` to `file`. @throws the file system's error when it cannot be written. */
export function writeSarif(file: string, reports: readonly JsonReport[], version: string): void {
  writeFileSync(file, `${JSON.stringify(sarifLog(reports, version), null, 2)}\n`);
}
