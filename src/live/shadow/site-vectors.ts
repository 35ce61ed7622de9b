/**
 * **Site vectors** (issue 24 §1, memory): a split page whose 8 words' lists are equal record by record but for their
 * sites — moldyn's positions `pos[3*j]`, `pos[3*j + 1]`, `pos[3*j + 2]`, read at three sites by every thread, and its
 * forces `acc[base + 3*j + d]` written at three — is merged as equal lists are (`Pages.merge` of `./pages.ts`): each
 * record of the first word's list whose 8 sites differ takes, as its `SITE`, minus the heap index of a *site vector*
 * (an Info-sized record of the 8 sites, word by word), which {@link siteAt} reads: a check reports the site of the
 * word it was made on, as the 8 lists did, and a split (`Pages.copyTo`) gives each word its own site again. A vector
 * is made by one thread, interned by its 8 sites ({@link SiteVectors}, at most {@link SITE_VECTORS_MAX}), filled
 * before any record names it and never freed or written again, so any thread reads it under any page lock; the pages
 * of one loop get the same vectors and so equal lists, which `Pages.shareList` shares.
 */
import type { StateViews } from '../memory/state.js';
import { Info } from './records.js';

/**
 * The site of Info `e` on word `k` (0–7) of its page: its `SITE`, or, when that is negative, entry `k` of the site
 * vector at heap index −`SITE` (see the file header).
 */
export function siteAt(heap: Int32Array, e: number, k: number): number {
  const site = heap[e + Info.SITE];
  return site >= 0 ? site : heap[k - site];
}

/** Site vectors a thread makes at most ({@link SiteVectors}; never freed: 32 bytes each). */
const SITE_VECTORS_MAX = 1024;

/**
 * One thread's site vectors over the shared state `s`, each an Info-sized record of the heap taken from `alloc` (the
 * thread's Info pool, `./info-pool.ts`).
 */
export class SiteVectors {
  constructor(
    private readonly s: StateViews,
    private readonly alloc: () => number,
  ) {}

  /** The 8 words' Infos {@link sitesOf} compares, the sites of one record, and the first list's new sites. */
  private readonly siteCursors = new Int32Array(8);
  private readonly siteWords = new Int32Array(8);
  private readonly newSites: number[] = [];

  /**
   * The site vectors this thread made, by a hash of their 8 sites: heap index ({@link sitesOf}; a string key of the
   * sites was a string built per record of every merge).
   */
  private readonly vectors = new Map<number, number>();

  /**
   * The new `SITE` of each record of the list from Info `e0` (a split page's first word's), in order, the lists of
   * the page's words 1–7 (heads at `heads + 1` … `heads + 7`, `./table.ts`) being equal to it but for their sites
   * (`Pages.merge` tested it): the record's site when its 8 words' sites are equal, else minus its site vector's heap
   * index (made if new).
   * @returns the sites (an array reused by the next call), or undefined when a site is already negative or no vector
   * can be had ({@link siteVector}): the page then stays split. Lock held.
   */
  sitesOf(heap: Int32Array, e0: number, heads: number): number[] | undefined {
    const at = this.siteCursors;
    at[0] = e0;
    for (let k = 1; k < 8; k++) at[k] = heap[heads + k];
    const sites = this.newSites;
    sites.length = 0;
    for (let e = e0; e !== 0; e = heap[e + Info.NEXT]) {
      const vector = this.siteWords;
      let same = true;
      for (let k = 0; k < 8; k++) {
        vector[k] = siteAt(heap, at[k], k);
        if (vector[k] < 0) return undefined; // not a site (string ids are not negative)
        same &&= vector[k] === vector[0];
        at[k] = heap[at[k] + Info.NEXT];
      }
      const v = same ? vector[0] : -this.siteVector(vector);
      if (v === 0 && !same) return undefined; // no room for another vector
      sites.push(v);
    }
    return sites;
  }

  /**
   * The `SITE` of one record standing for the 8 words of a page whose sites are the 8 non-negative Int32 of the heap
   * from index `at` (a pending page's, `PendingPages.pendingState` of `./pending.ts`): the site when they are equal, else minus
   * their site vector's heap index (made if new).
   * @returns that site, or undefined when no vector can be had ({@link siteVector}).
   */
  siteOf(heap: Int32Array, at: number): number | undefined {
    const vector = this.siteWords;
    let same = true;
    for (let k = 0; k < 8; k++) {
      vector[k] = heap[at + k];
      same &&= vector[k] === vector[0];
    }
    if (same) return vector[0];
    const v = this.siteVector(vector);
    return v === 0 ? undefined : -v;
  }

  /**
   * The heap index of the site vector of the 8 sites `sites` (non-negative), made if new; 0 when this thread has made
   * {@link SITE_VECTORS_MAX} already, or made another vector of the same hash (the page then stays split).
   */
  private siteVector(sites: Int32Array): number {
    let hash = 0;
    for (let k = 0; k < 8; k++) hash = Math.imul(hash ^ sites[k], 0x9e3779b1);
    const heap = this.s.heap;
    const known = this.vectors.get(hash);
    if (known !== undefined) {
      for (let k = 0; k < 8; k++) if (heap[known + k] !== sites[k]) return 0;
      return known;
    }
    if (this.vectors.size >= SITE_VECTORS_MAX) return 0;
    const v = this.alloc();
    this.s.heap.set(sites, v);
    this.vectors.set(hash, v);
    return v;
  }
}
