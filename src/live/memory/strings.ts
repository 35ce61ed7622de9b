/**
 * The live detector's string heap: the texts of sites (`file:line:column`) and race records, as UTF-16 code units in
 * the shared `str` buffer with a (start, length) index in `strIndex` (`./state.ts`), so that every thread reads the
 * strings any thread stored. Written under `CTL.strLock`; a string is published by the atomic store of the count.
 */
import { CTL, ensureBytes, lock, rawAtomics, type StateViews, unlock } from './state.js';

/** Interns nothing: stores `text` as a new string and returns its id. */
export function putString(s: StateViews, text: string): number {
  lock(s, s.ctl, CTL.strLock);
  try {
    const start = s.ctl[CTL.strTop];
    const id = s.ctl[CTL.strCount];
    ensureBytes(s.state.str, (start + text.length) * 2);
    ensureBytes(s.state.strIndex, (id + 1) * 8);
    s.refresh(); // before the writes: the views are of the lengths at their last refresh (writes past them are lost)
    for (let i = 0; i < text.length; i++) s.str[start + i] = text.charCodeAt(i);
    s.strIndex[2 * id] = start;
    s.strIndex[2 * id + 1] = text.length;
    s.ctl[CTL.strTop] = start + text.length;
    rawAtomics.store(s.ctl, CTL.strCount, id + 1);
    return id;
  } finally {
    unlock(s.ctl, CTL.strLock);
  }
}

/** The string with id `id` (as stored by {@link putString}). */
export function getString(s: StateViews, id: number): string {
  rawAtomics.load(s.ctl, CTL.strCount); // synchronizes with the store that published it
  if (2 * id + 1 >= s.strIndex.length) s.refresh();
  const start = s.strIndex[2 * id];
  const len = s.strIndex[2 * id + 1];
  if (start + len > s.str.length) s.refresh();
  let out = '';
  // apply reads an array-like by index; a spread would go through the iterator the runtime patches for user views
  for (let i = 0; i < len; i += 8192) {
    const units = s.str.subarray(start + i, start + Math.min(len, i + 8192));
    out += String.fromCharCode.apply(null, units as unknown as number[]);
  }
  return out;
}
