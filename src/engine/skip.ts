import { readFileSync } from 'node:fs';
import { TraceError } from '../model/errors.js';
import { growAtLeast } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';

const DIRECTIVES = ['variable', 'field', 'object', 'location'] as const;

/**
 * Static pre-elimination (Goldilocks PLDI'07 §5.2): accesses a sound static analysis proved race-free need
 * no check. A skip file lists them, one per line (`#` comments and blank lines ignored):
 * `variable NAME` (exact variable), `field NAME` (a field of every object: `f` for `o.f`, `pkg.C.f` for
 * `pkg.C.f@12`), `object NAME` (every variable of the object), `location LOC` (accesses at that source
 * location). Skipped reads and writes are not passed to the detector; commits are checked in full (their
 * sets are synchronization).
 */
export class SkipList {
  readonly variables = new Set<string>();
  readonly fields = new Set<string>();
  readonly objects = new Set<string>();
  readonly locations = new Set<string>();
  /** Per variable / location id: 0 not decided yet, 1 check, 2 skip. */
  private variableFlag: Uint8Array = new Uint8Array(1024);
  private locationFlag: Uint8Array = new Uint8Array(1024);

  /** @throws TraceError naming the line for an unknown directive or a missing name. */
  static parse(text: string, file: string): SkipList {
    const s = new SkipList();
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const sp = line.indexOf(' ');
      const directive = sp < 0 ? line : line.slice(0, sp);
      const name = sp < 0 ? '' : line.slice(sp + 1).trim();
      if (!(DIRECTIVES as readonly string[]).includes(directive) || name === '') {
        throw new TraceError(
          file,
          i + 1,
          1,
          raw,
          `expected one of: ${DIRECTIVES.map((d) => `${d} NAME`).join(', ')}`,
        );
      }
      s[`${directive as (typeof DIRECTIVES)[number]}s`].add(name);
    });
    return s;
  }

  static load(file: string): SkipList {
    return SkipList.parse(readFileSync(file, 'utf8'), file);
  }

  /** Whether an access to variable x at location loc is skipped. */
  skips(symbols: Symbols, x: number, loc: number): boolean {
    if (x >= this.variableFlag.length) this.variableFlag = growAtLeast(this.variableFlag, x + 1);
    let f = this.variableFlag[x];
    if (f === 0) {
      const name = symbols.variables.name(x);
      const skip =
        this.variables.has(name) ||
        this.fields.has(fieldOf(name)) ||
        this.objects.has(symbols.objects.name(symbols.objectOf(x)));
      f = this.variableFlag[x] = skip ? 2 : 1;
    }
    if (f === 2) return true;
    if (this.locations.size === 0) return false;
    if (loc >= this.locationFlag.length) this.locationFlag = growAtLeast(this.locationFlag, loc + 1);
    let g = this.locationFlag[loc];
    if (g === 0) g = this.locationFlag[loc] = this.locations.has(symbols.locations.name(loc)) ? 2 : 1;
    return g === 2;
  }
}

/** The field part of a variable name (see Symbols): `o.f` → `f`, `pkg.C.f@12` → `pkg.C.f`, `@03.C.f` → `C.f`. */
export function fieldOf(name: string): string {
  const at = /@\d+$/.exec(name);
  if (at !== null) return name.slice(0, at.index);
  const rr = /^@[0-9A-Fa-f]+\./.exec(name);
  if (rr !== null) return name.slice(rr[0].length);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? name : name.slice(dot + 1);
}
