/**
 * @module crawler/report/changes-html
 * The report's sections about change: what changed since the last crawl
 * (pages added, removed and changed with a short diff, new missing pages
 * with the pages that link to them, new redirects), and the last scoring of
 * the team's judged queries. Every value from a crawled page is escaped.
 */
import { escapeHtml } from '../../shared/escape.js';
import type { ChangesData, TextDiff } from './changes.js';
import type { Evaluation } from '../evaluate/metrics.js';
import { explainPath } from '../evaluate/metrics.js';

const num = (n: number) => n.toLocaleString('en-US');
const link = (u: string) => `<a href="${escapeHtml(u)}">${escapeHtml(u)}</a>`;
const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

function more(count: number, shown: number): string {
  return count > shown ? `<p>… and ${num(count - shown)} more.</p>` : '';
}

function diffHtml(d: TextDiff): string {
  return `<div class="diff">${escapeHtml(d.before)} ${d.removed ? `<del>${escapeHtml(d.removed)}</del>` : ''} ${d.added ? `<ins>${escapeHtml(d.added)}</ins>` : ''}</div>`;
}

function list<T>(title: string, id: string, count: number, items: T[], item: (x: T) => string): string {
  if (count === 0) return '';
  return `<h3 id="${id}">${escapeHtml(title)} (${num(count)})</h3><ul class="changes">${items.map((x) => `<li>${item(x)}</li>`).join('')}</ul>${more(count, items.length)}`;
}

/** Where a missing page is linked from: the pages to fix. */
function linkedFromHtml(linkedFrom: string[]): string {
  return linkedFrom.length ? `<br>linked from ${linkedFrom.map(link).join(', ')}` : '<br>no page links to it now';
}

export function changesSection(c: ChangesData | null): string {
  if (!c) return '';
  const rows = [
    ['pages added', c.added.count, '#added'],
    ['pages removed', c.removed.count, '#removed'],
    ['pages changed', c.changed.count, '#changed'],
    ['new missing pages (404, 410)', c.missing.count, '#new-missing'],
    ['new redirects', c.redirects.count, '#new-redirects'],
  ] as const;
  const summary = `<table><tbody>${rows.map(([k, n, href]) => `<tr><td>${n ? `<a href="${href}">${k}</a>` : k}</td><td class="n">${num(n)}</td></tr>`).join('')}</tbody></table>`;
  const scope = c.segments.length
    ? `the ${num(c.segments.length)} segment${c.segments.length === 1 ? '' : 's'} fetched since ${escapeHtml(c.since)} (${c.segments.map(escapeHtml).join(', ')}) against those before`
    : `nothing was fetched since ${escapeHtml(c.since)}`;
  return `<section id="changes"><h2>What changed</h2><p>Since ${escapeHtml(c.since)}: ${scope}. <code>hazelnut report &lt;crawl&gt; -since &lt;segment|yyyy-MM-dd&gt;</code> compares from another point.</p>${summary}
${list('Pages added', 'added', c.added.count, c.added.examples, (a) => `${a.title ? `${escapeHtml(a.title)} — ` : ''}${link(a.url)}`)}
${list('Pages removed', 'removed', c.removed.count, c.removed.examples, (r) => `${link(r.url)} (${escapeHtml(r.why)})`)}
${list('Pages changed', 'changed', c.changed.count, c.changed.examples, (ch) => `${ch.title ? `${escapeHtml(ch.title)} — ` : ''}${link(ch.url)}${diffHtml(ch.diff)}`)}
${list('New missing pages', 'new-missing', c.missing.count, c.missing.examples, (m) => `${link(m.url)} (HTTP ${m.httpStatus})${linkedFromHtml(m.linkedFrom)}`)}
${list('New redirects', 'new-redirects', c.redirects.count, c.redirects.examples, ([f, t]) => `${link(f)} → ${link(t)}`)}</section>`;
}

export function evaluationSection(e: Evaluation | null): string {
  if (!e) return '';
  const changed = new Set(e.changed.map((c) => c.query));
  const rows = e.queries
    .map(
      (q) =>
        `<tr><td>${escapeHtml(q.query)}</td><td class="n">${q.rank ?? '—'}</td><td>${q.top[0] ? link(q.top[0]) : 'no hit'}${changed.has(q.query) ? ' <strong>(changed)</strong>' : ''}</td><td>${q.expected.map(link).join('<br>')}</td><td><a href="${escapeHtml(explainPath(q))}">explain</a></td></tr>`,
    )
    .join('');
  const firsts = e.queries.filter((q) => q.rank === 1).length;
  const since = e.lastAt === null ? 'the first run' : `${num(e.changed.length)} first hit${e.changed.length === 1 ? '' : 's'} changed since the run of ${when(e.lastAt)}`;
  return `<section id="queries"><h2>Your judged queries</h2><p><code>hazelnut evaluate</code> at ${when(e.at)} on ${num(e.documents)} documents, ${escapeHtml(e.judgments)}: <strong>MRR@10 ${e.mrr.toFixed(3)}</strong>, <strong>P@1 ${e.p1.toFixed(3)}</strong> (${firsts} of ${e.queries.length} first); ${since}. The explain links open on the searcher that serves this report.</p>
<table class="wide"><thead><tr><th>query</th><th>rank of the expected page</th><th>first hit</th><th>expected</th><th></th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
