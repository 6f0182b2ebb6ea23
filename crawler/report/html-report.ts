/**
 * @module crawler/report/html-report
 * The crawl report as one self-contained HTML file: inline CSS, SVG charts
 * (no script) and the numbers beside each chart, from `collectReport`. The
 * point "What changed" compares from is kept in a meta element, so the
 * report written again compares from the same point.
 */
import type { BoundingHost, ReportData } from './collect.js';
import { escapeHtml } from '../../shared/escape.js';
import { typeName } from '../../shared/doc-type.js';
import { changesSection, evaluationSection } from './changes-html.js';
import { barChart, binCounts, histogram, seriesColor, lineChart } from './svg.js';

const SINCE_META = 'hazelnut-since';

/** The point "What changed" of a written report compares from, if it has one. */
export function sinceOf(html: string): string | undefined {
  return new RegExp(`<meta name="${SINCE_META}" content="([^"]+)">`).exec(html)?.[1];
}

const num = (n: number) => n.toLocaleString('en-US');
const count = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;
const when = (ms: number | null) => (ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC');

/** The value at quantile q of sorted values. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

const STATUS_ORDER = ['db_fetched', 'db_notmodified', 'db_unfetched', 'db_redir_perm', 'db_redir_temp', 'db_gone', 'db_duplicate'];

function table(head: string[], rows: (string | number)[][], cls = ''): string {
  const cell = (v: string | number) => (typeof v === 'number' ? `<td class="n">${num(v)}</td>` : `<td>${v}</td>`);
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map(cell).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

const examples = (urls: string[]) => urls.map((u) => `<a href="${escapeHtml(u)}">${escapeHtml(u)}</a>`).join('<br>');

function statusSection(d: ReportData): string {
  const statuses = [...new Set([...STATUS_ORDER.filter((s) => d.pages.byStatus[s]), ...Object.keys(d.pages.byStatus)])];
  const byStatus = barChart(
    'WebDB pages per status',
    statuses.map((s, i) => ({ label: s, value: d.pages.byStatus[s] ?? 0, color: seriesColor(i) })),
  );
  const hosts = d.pages.byHost.slice(0, 25);
  const byHost = barChart('WebDB pages per host', hosts.map((h) => ({ label: h.host, value: h.total })));
  const rows = d.pages.byHost.map((h) => [escapeHtml(h.host), h.total, ...statuses.map((s) => h.byStatus[s] ?? 0)]);
  return `<section id="status"><h2>Pages per status and per host</h2><p>${num(d.pages.total)} URLs in the WebDB on ${num(d.pages.byHost.length)} hosts.</p>
<div class="pair">${byStatus}${table(['status', 'pages'], statuses.map((s) => [escapeHtml(s), d.pages.byStatus[s] ?? 0]))}</div>
<h3>Per host${d.pages.byHost.length > 25 ? ' (the 25 largest charted)' : ''}</h3>${byHost}${table(['host', 'pages', ...statuses], rows, 'wide')}</section>`;
}

function rateSection(d: ReportData): string {
  const rounds = d.rounds.filter((r) => r.pages > 0);
  if (rounds.length === 0) return `<section id="rate"><h2>Fetch rate over time</h2><p>No page was fetched.</p></section>`;
  const series = rounds.map((r, i) => ({
    name: `round ${i + 1} (${r.segment})`,
    points: r.rate.map((c, j): [number, number] => [j * r.bucketSeconds, c / r.bucketSeconds]),
  }));
  const chart = lineChart('Pages per second over each round', series, 's from the round start', 'pages/s');
  const rows = rounds.map((r, i) => {
    const secs = Math.max(1, r.rate.length * r.bucketSeconds);
    return [`<span class="key" style="background:${seriesColor(i)}"></span> ${i + 1}`, escapeHtml(r.segment), when(r.started), r.pages, `${secs} s`, (r.pages / secs).toFixed(2), boundHtml(r.bound)];
  });
  return `<section id="rate"><h2>Fetch rate over time, per round</h2>${chart}${table(['round', 'segment', 'started', 'requests', 'duration', 'pages/s', 'ended by'], rows)}
<p>A round lasts until its last host is done: "ended by" names that host, its pages in the round and how long it fetched alone at the end (politeness allows one request at a time to a host; <code>fetcher.tail.max.time</code> bounds that tail).</p></section>`;
}

function boundHtml(b: BoundingHost | null): string {
  if (!b) return '—';
  const alone = b.aloneMs === null ? 'the only host' : `alone for the last ${(b.aloneMs / 1000).toFixed(1)} s`;
  return `${escapeHtml(b.host)} (${count(b.pages, 'page')}, ${alone})`;
}

const MS_EDGES = [0, 10, 50, 100, 250, 500, 1000, 2000, 5000];
const MS_LABELS = ['<10 ms', '10–50', '50–100', '100–250', '250–500', '0.5–1 s', '1–2 s', '2–5 s', '≥5 s'];
const SIZE_EDGES = [0, 1024, 10 * 1024, 100 * 1024, 1024 * 1024, 10 * 1024 * 1024];
const SIZE_LABELS = ['<1 KiB', '1–10 KiB', '10–100 KiB', '0.1–1 MiB', '1–10 MiB', '≥10 MiB'];

function timesAndSizes(d: ReportData): string {
  const ms = [...d.fetch.responseMs].sort((a, b) => a - b);
  const sizes = [...d.fetch.sizes].sort((a, b) => a - b);
  const msTable = table(['', 'ms'], [['median', quantile(ms, 0.5)], ['90th percentile', quantile(ms, 0.9)], ['99th percentile', quantile(ms, 0.99)], ['slowest', ms.at(-1) ?? 0], ['requests', ms.length]]);
  const sizeTable = table(
    ['', 'size'],
    [['median', formatBytes(quantile(sizes, 0.5))], ['90th percentile', formatBytes(quantile(sizes, 0.9))], ['largest', formatBytes(sizes.at(-1) ?? 0)], ['total', formatBytes(sizes.reduce((a, b) => a + b, 0))], ['pages', sizes.length]],
  );
  const types = d.fetch.types.slice(0, 15);
  return `<section id="times"><h2>Response times</h2><div class="pair">${histogram('Response times', binCounts(ms, MS_EDGES), MS_LABELS)}${msTable}</div></section>
<section id="sizes"><h2>Sizes</h2><div class="pair">${histogram('Page sizes (bytes received)', binCounts(sizes, SIZE_EDGES), SIZE_LABELS)}${sizeTable}</div></section>
<section id="types"><h2>Content types</h2><div class="pair">${barChart('Pages per content type', types.map((t) => ({ label: typeName(t.type), value: t.count })))}${table(['type', '', 'pages'], d.fetch.types.map((t) => [escapeHtml(typeName(t.type)), escapeHtml(t.type), t.count]))}</div></section>`;
}

function outcomes(d: ReportData): string {
  const byStatus = Object.entries(d.fetch.byStatus).sort((a, b) => b[1] - a[1]);
  const http = Object.entries(d.fetch.byHttpStatus).sort((a, b) => a[0].localeCompare(b[0]));
  const list = (rows: { key: string; count: number; examples: string[] }[], what: string) =>
    rows.length ? table([what, 'pages', 'examples'], rows.map((e) => [escapeHtml(e.key), e.count, examples(e.examples)]), 'wide') : '<p>None.</p>';
  return `<section id="fetches"><h2>Fetch outcomes</h2><div class="pair">${barChart('Fetch records per status', byStatus.map(([k, v]) => ({ label: k, value: v })))}${barChart('Answers per HTTP status', http.map(([k, v]) => ({ label: `HTTP ${k}`, value: v })), 320)}</div></section>
<section id="errors"><h2>Top errors</h2>${list(d.fetch.errors, 'error')}</section>
<section id="missing"><h2>Missing pages</h2><p>${count(d.missing.count, 'page is', 'pages are')} gone (404, 410)${d.missing.count ? ', each with the pages that link to it (the links to fix):' : '.'}</p>${
    d.missing.examples.length ? table(['missing page', 'linked from'], d.missing.examples.map((m) => [examples([m.url]), examples(m.linkedFrom) || 'no page links to it now']), 'wide') : ''
  }${d.missing.count > d.missing.examples.length ? `<p>… and ${num(d.missing.count - d.missing.examples.length)} more (<code>hazelnut readdb &lt;crawl&gt;/webdb -dump - -format csv</code> lists them all).</p>` : ''}</section>
<section id="robots"><h2>Robots denials</h2>${list(d.fetch.robotsDenied, 'host')}</section>
<section id="redirects"><h2>Redirects</h2><p>${count(d.fetch.redirects.count, 'redirect')}.</p>${
    d.fetch.redirects.examples.length ? table(['from', 'to'], d.fetch.redirects.examples.map(([f, t]) => [examples([f]), examples([t])]), 'wide') : ''
  }</section>
<section id="duplicates"><h2>Duplicates</h2><p>${count(d.duplicates.pages, 'fetched page shares', 'fetched pages share')} their content with another (${count(d.duplicates.groups, 'group')}, by content signature); dedup keeps one of each in the index.</p>${
    d.duplicates.examples.length ? table(['pages with the same content'], d.duplicates.examples.map((g) => [examples(g)]), 'wide') : ''
  }</section>`;
}

function dueAndAges(d: ReportData): string {
  const ages = d.segments.map((s) => ({ ...s, ms: s.created === null ? 0 : Math.max(0, d.generated - s.created) }));
  const unit = ageUnit(Math.max(0, ...ages.map((s) => s.ms)));
  const rows = ages.map((s) => [escapeHtml(s.name), when(s.created), (s.ms / 86_400_000).toFixed(1), s.pages, formatBytes(s.bytes), s.indexed ? 'yes' : 'no']);
  const waiting = d.waiting
    ? `<p id="waiting"><strong>${escapeHtml(d.waiting)}.</strong> A crawl takes at most <code>generate.max.count</code> URLs of one host a round, in <code>-depth</code> rounds: run it again, or raise them (the README's "File shares" says how).</p>`
    : '';
  return `<section id="due"><h2>What is due when</h2>${waiting}<div class="pair">${barChart('WebDB pages by next fetch time', d.due.map((b) => ({ label: b.label, value: b.count })))}${table(['next fetch', 'pages'], d.due.map((b) => [escapeHtml(b.label), b.count]))}</div></section>
<section id="segments"><h2>Segment ages</h2>${barChart(`Age of each segment, ${unit.name}`, ages.map((s) => ({ label: s.name, value: Number((s.ms / unit.ms).toFixed(1)) })))}${table(['segment', 'created', 'age (days)', 'fetch records', 'size', 'indexed'], rows)}
<p>Segments older than the longest fetch interval hold only pages fetched again since: <code>hazelnut prune ${escapeHtml(d.crawlDir)}/segments -olderThan 30d -dryRun</code> shows what would go.</p></section>`;
}

/** The unit a segment-age chart counts in: days say nothing on a crawl an hour old. */
export function ageUnit(maxMs: number): { name: string; ms: number } {
  if (maxMs < 2 * 60_000) return { name: 'seconds', ms: 1000 };
  if (maxMs < 2 * 3_600_000) return { name: 'minutes', ms: 60_000 };
  if (maxMs < 2 * 86_400_000) return { name: 'hours', ms: 3_600_000 };
  return { name: 'days', ms: 86_400_000 };
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}th,td{border:1px solid #ddd;padding:2px 8px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}table.wide{width:100%}td a{word-break:break-all}
.pair{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}svg{font:12px system-ui,sans-serif;max-width:100%;height:auto}
svg .axis{fill:#666}svg .rule{stroke:#999}.key{display:inline-block;width:.8em;height:.8em}nav a{margin-right:1em}
ul.changes{padding-left:1.2em}ul.changes li{margin:.3em 0;word-break:break-word}.diff{font-size:12px;color:#444}del{background:#fdd;color:#822}ins{background:#dfd;color:#252;text-decoration:none}`;

export function renderReport(d: ReportData): string {
  const fetched = Object.values(d.fetch.byStatus).reduce((a, b) => a + b, 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${d.changes ? `<meta name="${SINCE_META}" content="${escapeHtml(d.changes.since)}">` : ''}<title>Crawl report: ${escapeHtml(d.crawlDir)}</title><style>${CSS}</style></head><body>
<h1>Crawl report</h1>
<p><code>${escapeHtml(d.crawlDir)}</code>, written ${when(d.generated)} by <code>hazelnut report</code>: ${num(d.pages.total)} URLs known, ${num(fetched)} fetch records in ${num(d.segments.length)} segments (one per round).</p>
<nav>${d.changes ? '<a href="#changes">what changed</a>' : ''}${d.evaluation ? '<a href="#queries">judged queries</a>' : ''}<a href="#status">status</a><a href="#rate">fetch rate</a><a href="#times">response times</a><a href="#sizes">sizes</a><a href="#types">types</a><a href="#errors">errors</a><a href="#missing">missing</a><a href="#robots">robots</a><a href="#redirects">redirects</a><a href="#duplicates">duplicates</a><a href="#due">due</a><a href="#segments">segments</a></nav>
${changesSection(d.changes)}
${evaluationSection(d.evaluation)}
${statusSection(d)}
${rateSection(d)}
${timesAndSizes(d)}
${outcomes(d)}
${dueAndAges(d)}
</body></html>
`;
}
