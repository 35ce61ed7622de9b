/**
 * `--html FILE` of `goldilocks check` and `goldilocks run` (issue 25 §2): one self-contained page (inline CSS,
 * script and SVG; a Content-Security-Policy that allows no network) with, per race: both accesses with their source
 * lines (`./sources.ts`), the threads' timelines with the synchronization events between the two accesses
 * (`./timeline.ts`) and how the variable's lockset evolved over them (the paper's Figure 6; `./history.ts`). Where
 * the evidence is not available (a live run keeps no history of its synchronization events), the page says what
 * is missing and how to get it.
 */
import { writeFileSync } from 'node:fs';
import type { JsonRace, JsonReport } from '../json.js';
import { accessWords, type RaceAccess } from '../race.js';
import { decision, textSummary } from '../text.js';
import { escapeHtml as h } from './escape.js';
import type { Evidence } from './history.js';
import type { SourceReader } from './sources.js';
import { timelineSvg } from './timeline.js';

/** What the page is made of. */
export interface HtmlInput {
  /** One report per detector (`check -d a,b`), or the run's. */
  reports: readonly JsonReport[];
  /** The evidence of a listed race, when known. */
  evidence?: (race: JsonRace, report: JsonReport) => Evidence | undefined;
  /** Shown in place of the timelines and the lockset's evolution when a race has no evidence: what is missing. */
  missing: string;
  sources: SourceReader;
}

const CSS = `
:root { --fg:#1d232a; --dim:#66707a; --bg:#fbfbfc; --card:#fff; --line:#d9dee3; --race:#c62828; --hb:#2e7d32; --sync:#546e7a; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, sans-serif; color:var(--fg); background:var(--bg); }
header { padding:16px 24px; border-bottom:1px solid var(--line); background:var(--card); }
header h1 { margin:0 0 6px; font-size:20px; }
.summary { font-family:ui-monospace, monospace; font-size:12px; color:var(--dim); white-space:pre-wrap; }
nav { padding:8px 24px; }
nav a { display:inline-block; margin:2px 10px 2px 0; color:var(--race); }
main { padding:0 24px 40px; }
section.race { background:var(--card); border:1px solid var(--line); border-left:4px solid var(--race); border-radius:6px; margin:18px 0; padding:12px 18px; }
section.race.imprecise { border-left-color:#ef6c00; }
section.race h2 { font-size:17px; margin:4px 0 8px; }
.badge { font-size:11px; font-weight:600; background:#eceff1; border-radius:3px; padding:1px 6px; margin-right:6px; vertical-align:2px; }
.decided { color:var(--dim); margin:0 0 10px; }
.accesses { display:grid; grid-template-columns:repeat(auto-fit, minmax(340px, 1fr)); gap:12px; }
.access { border:1px solid var(--line); border-radius:5px; padding:8px 10px; }
.access h4 { margin:0 0 4px; font-size:14px; }
.access.current h4 { color:var(--race); }
.where { font-family:ui-monospace, monospace; font-size:12px; margin:0 0 6px; word-break:break-all; }
pre { margin:0; font:12px/1.5 ui-monospace, monospace; overflow-x:auto; }
pre.source { background:#f5f7f8; padding:6px 0; border-radius:4px; }
pre.source span.l { display:block; padding:0 8px; }
pre.source span.l.hit { background:#ffebee; }
pre.source span.n { display:inline-block; width:4em; color:var(--dim); user-select:none; }
.unreadable, .missing { color:var(--dim); font-style:italic; margin:4px 0; }
.scroll { overflow-x:auto; border:1px solid var(--line); border-radius:5px; background:#fff; }
svg.timeline .lane { stroke:var(--line); stroke-width:2; }
svg.timeline .lane-label { font:12px ui-monospace, monospace; fill:var(--fg); }
svg.timeline .mark-label { font:11px ui-monospace, monospace; fill:var(--dim); }
svg.timeline .guide { stroke:#eceff1; stroke-dasharray:2 3; }
svg.timeline .access rect { fill:var(--race); }
svg.timeline .sync circle { fill:#fff; stroke:var(--sync); stroke-width:2; }
svg.timeline .changed circle { fill:var(--hb); stroke:var(--hb); stroke-width:2; }
svg.timeline .gap text { font-size:18px; fill:var(--dim); }
svg.timeline .hl circle, svg.timeline .hl rect { stroke:#ffb300; stroke-width:4; }
table.lockset { border-collapse:collapse; font:12px ui-monospace, monospace; margin-top:6px; }
table.lockset th, table.lockset td { border-bottom:1px solid var(--line); padding:3px 10px; text-align:left; vertical-align:top; }
table.lockset tr.changed td.ls { color:var(--hb); font-weight:600; }
table.lockset tr.same { color:var(--dim); }
table.lockset tr.verdict td { color:var(--race); font-weight:600; }
table.lockset tr.hl { background:#fff8e1; }
.changes-only table.lockset tr.same { display:none; }
label.toggle { font-size:12px; color:var(--dim); margin-left:8px; }
footer { color:var(--dim); font-size:12px; padding:0 24px 24px; }
`;

/** Links each event's marks (timeline and lockset table, `data-ev`) and the "changes only" switch. */
const SCRIPT = `
for (const el of document.querySelectorAll('[data-ev]')) {
  const all = () => el.closest('section').querySelectorAll('[data-ev="' + el.dataset.ev + '"]');
  el.addEventListener('mouseenter', () => { for (const x of all()) x.classList.add('hl'); });
  el.addEventListener('mouseleave', () => { for (const x of all()) x.classList.remove('hl'); });
}
for (const box of document.querySelectorAll('input.only-changes'))
  box.addEventListener('change', () => box.closest('section').classList.toggle('changes-only', box.checked));
`;

/** The card of one access (or of the allocation): where, the source lines, the stack. */
function card(
  title: string,
  cls: string,
  location: string,
  index: number,
  sources: SourceReader,
  stack?: string,
): string {
  const ex = sources.excerpt(location);
  const where = `${location || '&lt;no location&gt;'}${index >= 0 ? ` (event ${index})` : ''}`;
  const source = ex.unreadable
    ? `<p class="unreadable">${h(ex.unreadable)}</p>`
    : `<pre class="source">${ex.lines
        .map(
          (l) =>
            `<span class="l${l.n === ex.line ? ' hit' : ''}"><span class="n">${l.n}</span>${h(l.text)}</span>`,
        )
        .join('')}</pre>`;
  const frames = stack ? `<details><summary>stack</summary><pre>${h(stack)}</pre></details>` : '';
  return `<div class="access ${cls}"><h4>${h(title)}</h4><p class="where">${location ? h(where) : where}</p>${source}${frames}</div>`;
}

/** The lockset table (Figure 6): after the previous access, after each event, at the racing access. */
function locksetTable(race: JsonRace, ev: Evidence): string {
  const set = (ls: string[]) => `{${ls.join(', ')}}`;
  const rows = [
    `<tr class="changed" data-ev="${race.previous.index}"><td>${race.previous.index}</td><td>${h(race.previous.thread)}</td><td>${h(`${race.previous.access}(${race.variable})`)} — previous access (rule 1)</td><td class="ls">${h(set(ev.start))}</td></tr>`,
  ];
  const half = ev.omitted > 0 ? ev.events.length / 2 : -1;
  ev.events.forEach((e, i) => {
    if (i === half)
      rows.push(`<tr class="same"><td colspan="4">… ${ev.omitted} events not shown …</td></tr>`);
    rows.push(
      `<tr class="${e.changed ? 'changed' : 'same'}" data-ev="${e.index}"><td>${e.index}</td><td>${h(e.thread)}</td><td>${h(e.text)}</td><td class="ls">${h(set(e.lockset))}</td></tr>`,
    );
  });
  const u = race.current.thread;
  rows.push(
    `<tr class="verdict" data-ev="${race.current.index}"><td>${race.current.index}</td><td>${h(u)}</td><td>${h(`${race.current.access}(${race.variable})`)} — racing access</td><td class="ls">${h(`${u} ∉ ${set(ev.end)}: no happens-before, a race`)}</td></tr>`,
  );
  return `<table class="lockset"><thead><tr><th>event</th><th>thread</th><th>event</th><th>LS(${h(race.variable)}) after it</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The section of one race. */
function raceSection(race: JsonRace, report: JsonReport, id: string, input: HtmlInput): string {
  const m = race.memory
    ? ` <span class="dim">(${h(race.memory.elementType)}, ${race.memory.size} bytes)</span>`
    : '';
  const allocation = (race as JsonRace & { allocation?: { location: string; thread: string } }).allocation;
  const ev = input.evidence?.(race, report);
  const cards = [
    card(
      `racing ${accessWords(race.current)}`,
      'current',
      race.current.location,
      race.current.index,
      input.sources,
      race.current.stack,
    ),
    card(
      `${race.precise ? 'previous' : 'last other'} ${accessWords(race.previous)}`,
      'previous',
      race.previous.location,
      race.previous.index,
      input.sources,
      (race.previous as RaceAccess & { stack?: string }).stack,
    ),
    ...(allocation
      ? [
          card(
            allocation.location
              ? `memory allocated by thread ${allocation.thread}`
              : `memory created outside instrumented code, first met by thread ${allocation.thread}`,
            'allocation',
            allocation.location,
            -1,
            input.sources,
          ),
        ]
      : []),
  ];
  const evidence = ev
    ? `<h3>Timelines: the synchronization events between the two accesses</h3><div class="scroll">${timelineSvg(race, ev)}</div>` +
      `<h3>Lockset of <code>${h(race.variable)}</code> between the two accesses (Figure 6)<label class="toggle"><input type="checkbox" class="only-changes"> only the events that changed it (${ev.changes})</label></h3>` +
      locksetTable(race, ev)
    : `<h3>Timelines and lockset</h3><p class="missing">${h(input.missing)}</p>` +
      (race.lockset
        ? `<p>lockset at the racing access: <code>{${h((race.locksetNames ?? race.lockset).join(', '))}}</code></p>`
        : '');
  return `<section class="race${race.precise ? '' : ' imprecise'}" id="${id}" data-variable="${h(race.variable)}">
<h2><span class="badge">${h(report.detector)}</span>${race.precise ? 'Data race' : 'Potential data race'} on <code>${h(race.variable)}</code>${m}</h2>
<p class="decided">decided by: ${h(decision(race))}${race.count > 1 ? ` — this pair of locations raced ${race.count} times` : ''}</p>
<div class="accesses">${cards.join('')}</div>
${evidence}
</section>`;
}

/** The page of `input`. */
export function htmlPage(input: HtmlInput): string {
  const races = input.reports.flatMap((r, d) =>
    r.races.map((race, i) => ({ race, report: r, id: `race-${d}-${i + 1}` })),
  );
  const file = input.reports[0]?.input.file ?? '';
  const nav = races.map((x) => `<a href="#${x.id}">${h(x.race.variable)}</a>`).join('');
  const omitted = input.reports.reduce((n, r) => n + r.racesOmitted, 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>goldilocks: ${races.length} race${races.length === 1 ? '' : 's'} in ${h(file)}</title>
<style>${CSS}</style></head>
<body>
<header><h1 id="count" data-races="${races.length}">${races.length === 0 ? 'No races' : `${races.length} race${races.length === 1 ? '' : 's'}`} in <code>${h(file)}</code></h1>
<div class="summary">${input.reports.map((r) => h(textSummary(r, false))).join('')}</div></header>
${races.length > 0 ? `<nav>${nav}</nav>` : ''}
<main>${races.map((x) => raceSection(x.race, x.report, x.id, input)).join('\n')}</main>
<footer>${omitted > 0 ? `${omitted} more location pairs not shown (--max-reports). ` : ''}Made by goldilocks; the lockset rules are Figure 5 of Elmas, Qadeer, Tasiran, <i>Goldilocks: A Race and Transaction-Aware Java Runtime</i>, PLDI 2007.</footer>
<script>${SCRIPT}</script>
</body></html>
`;
}

/** Writes {@link htmlPage} of `input` to `file`. @throws the file system's error when it cannot be written. */
export function writeHtml(file: string, input: HtmlInput): void {
  writeFileSync(file, htmlPage(input));
}
