/** Public API of the goldilocks package: the offline checker, its detectors, trace readers and reports. */
export { type CheckOptions, type CheckResult, checkFile, verdicts } from './check.js';
export { checkText } from './check-text.js';
export type { AccessRef, Detector, DetectorContext, Race, RaceSink } from './detectors/detector.js';
export { createDetector } from './detectors/index.js';
export { DETECTORS, type DetectorName } from './detectors/names.js';
export { Engine } from './engine/engine.js';
export { TraceError } from './model/errors.js';
export * from './model/events.js';
export { Symbols } from './model/symbols.js';
export { RaceCollector } from './report/collector.js';
export type { JsonAccess, JsonRace, JsonReport, JsonSummary } from './report/json.js';
export type { MemoryLocation, RaceAccess, RaceRecord } from './report/race.js';
export { type Format, readTrace } from './trace/reader.js';
export { formatEvent } from './trace/writer.js';
