import {
  ACQUIRE,
  ALLOC,
  ATOMIC_DATA_READ,
  ATOMIC_DATA_WRITE,
  ATOMIC_READ,
  ATOMIC_RMW,
  ATOMIC_WRITE,
  BEGIN,
  COMMIT,
  DUMMY,
  END,
  type EventBatch,
  FORK,
  JOIN,
  KIND_NAMES,
  NOTIFY,
  READ,
  RELEASE,
  RMW,
  VOLATILE_READ,
  VOLATILE_WRITE,
  WAIT,
  WRITE,
} from '../model/events.js';
import type { Symbols } from '../model/symbols.js';

/** Operations RAPID's STD format can carry (the rest need the extended format). */
const STD_KINDS = new Set([READ, WRITE, ACQUIRE, RELEASE, FORK, JOIN, BEGIN, END, DUMMY]);

/**
 * Renders event `i` of a batch as a line of the extended format (docs/FORMATS.md), without newline.
 * The result parses back to the same event. For `std`, returns null when the event has no STD spelling
 * (volatiles, commit, alloc, wait/notify, enter/exit, values).
 */
export function formatEvent(symbols: Symbols, batch: EventBatch, i: number, std = false): string | null {
  const k = batch.kind[i];
  if (std && (!STD_KINDS.has(k) || batch.value[i] >= 0)) return null;
  // (ard/awd carry their atomic location in `value`)
  const x = batch.target[i];
  let op: string;
  switch (k) {
    case READ:
    case WRITE:
      op = `${KIND_NAMES[k]}(${symbols.variables.name(x)})`;
      if (batch.value[i] >= 0) op += `=${symbols.values.name(batch.value[i])}`;
      break;
    case ATOMIC_DATA_READ:
    case ATOMIC_DATA_WRITE:
      op = `${KIND_NAMES[k]}(${symbols.variables.name(x)},${symbols.volatiles.name(batch.value[i])})`;
      break;
    case ACQUIRE:
    case RELEASE:
    case WAIT:
    case NOTIFY:
      op = `${KIND_NAMES[k]}(${symbols.locks.name(x)})`;
      break;
    case FORK:
    case JOIN:
      op = `${KIND_NAMES[k]}(${symbols.threads.name(x)})`;
      break;
    case ALLOC:
      op = `alloc(${symbols.objects.name(x)})`;
      break;
    case COMMIT: {
      const p = batch.commitPool;
      const nr = p[x];
      const nw = p[x + 1];
      const names = (from: number, n: number) => {
        const out: string[] = [];
        for (let j = 0; j < n; j++) out.push(symbols.variables.name(p[from + j]));
        return out.join(',');
      };
      op = `commit(${names(x + 2, nr)};${names(x + 2 + nr, nw)})`;
      break;
    }
    case VOLATILE_READ:
    case VOLATILE_WRITE:
    case RMW:
    case ATOMIC_READ:
    case ATOMIC_WRITE:
    case ATOMIC_RMW:
      op = `${KIND_NAMES[k]}(${symbols.volatiles.name(x)})`;
      break;
    default:
      op = x < 0 ? KIND_NAMES[k] : `${KIND_NAMES[k]}(${symbols.markers.name(x)})`;
  }
  return `${symbols.threads.name(batch.thread[i])}|${op}|${symbols.locations.name(batch.loc[i])}`;
}
