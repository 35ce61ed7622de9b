/**
 * The threads' timelines of one race as inline SVG (plain SVG generated from data: no library, no network), for the
 * HTML page (`./page.ts`): one lane per thread, the previous access first and the current one last, and between
 * them the synchronization events of the trace in order (`./history.ts`); an event that changed the variable's
 * lockset is filled. Each mark has a `<title>` (its tooltip) and `data-ev`, the event index the page's script
 * links to the lockset table.
 */
import type { JsonRace } from '../json.js';
import { escapeHtml } from './escape.js';
import type { Evidence } from './history.js';

/** Lanes drawn at most; the events of further threads share the last lane. */
const MAX_LANES = 10;
const STEP = 30;
const LANE = 44;
const LEFT = 90;
const TOP = 70;

interface Mark {
  lane: number;
  x: number;
  index: number;
  label: string;
  title: string;
  kind: 'access' | 'sync' | 'changed' | 'gap';
}

/** The SVG of the timelines of `race` between its two accesses. */
export function timelineSvg(race: JsonRace, ev: Evidence): string {
  const lanes: string[] = [race.previous.thread];
  if (race.current.thread !== race.previous.thread) lanes.push(race.current.thread);
  for (const e of ev.events) if (!lanes.includes(e.thread)) lanes.push(e.thread);
  const shown = lanes.slice(0, MAX_LANES);
  if (lanes.length > MAX_LANES) shown[MAX_LANES - 1] = `+${lanes.length - MAX_LANES + 1} threads`;
  const laneOf = (t: string) => Math.min(lanes.indexOf(t), MAX_LANES - 1);
  const marks: Mark[] = [];
  let x = LEFT + STEP;
  const access = (a: JsonRace['current'], which: string) =>
    marks.push({
      lane: laneOf(a.thread),
      x,
      index: a.index,
      label: `${which} ${a.access}`,
      title: `event ${a.index}: ${which} ${a.atomic ? 'atomic ' : ''}${a.access} of ${race.variable} by ${a.thread} at ${a.location || '<no location>'}`,
      kind: 'access',
    });
  access(race.previous, 'previous');
  const half = ev.omitted > 0 ? ev.events.length / 2 : -1;
  ev.events.forEach((e, i) => {
    x += STEP;
    if (i === half) {
      marks.push({
        lane: 0,
        x,
        index: -1,
        label: `… ${ev.omitted} more …`,
        title: `${ev.omitted} events not drawn`,
        kind: 'gap',
      });
      x += STEP;
    }
    marks.push({
      lane: laneOf(e.thread),
      x,
      index: e.index,
      label: e.text.length > 22 ? `${e.text.slice(0, 21)}…` : e.text,
      title: `event ${e.index}: ${e.text} by ${e.thread}; lockset after: {${e.lockset.join(', ')}}`,
      kind: e.changed ? 'changed' : 'sync',
    });
  });
  x += STEP;
  access(race.current, 'racing');
  const width = x + STEP + 40;
  const height = TOP + shown.length * LANE;
  const y = (lane: number) => TOP + lane * LANE + LANE / 2;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="timelines of the threads between the two accesses">`,
  ];
  shown.forEach((t, lane) => {
    out.push(
      `<text class="lane-label" x="8" y="${y(lane) + 4}">${escapeHtml(t)}</text>`,
      `<line class="lane" x1="${LEFT}" y1="${y(lane)}" x2="${width - 20}" y2="${y(lane)}"/>`,
    );
  });
  for (const m of marks) {
    const cy = y(m.lane);
    const title = `<title>${escapeHtml(m.title)}</title>`;
    const data = m.index >= 0 ? ` data-ev="${m.index}"` : '';
    if (m.kind === 'access')
      out.push(
        `<g class="mark access"${data}>${title}<rect x="${m.x - 7}" y="${cy - 7}" width="14" height="14" transform="rotate(45 ${m.x} ${cy})"/></g>`,
      );
    else if (m.kind === 'gap')
      out.push(
        `<g class="mark gap">${title}<text x="${m.x}" y="${TOP - 6}" text-anchor="middle">⋯</text></g>`,
      );
    else out.push(`<g class="mark ${m.kind}"${data}>${title}<circle cx="${m.x}" cy="${cy}" r="6"/></g>`);
    out.push(
      `<text class="mark-label" transform="translate(${m.x + 3} ${TOP - 8}) rotate(-40)">${escapeHtml(m.label)}</text>`,
      `<line class="guide" x1="${m.x}" y1="${TOP - 4}" x2="${m.x}" y2="${cy - 8}"/>`,
    );
  }
  out.push('</svg>');
  return out.join('');
}
