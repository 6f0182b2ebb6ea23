/**
 * Parse throughput: parseContent (parse-html, outlink rules, signature,
 * language) beside a bare htmlparser2 pass with no callbacks over the same
 * generated pages, in the same run. Half the pages declare their language,
 * half are left to detection. Then hostile pages as they grow (unclosed
 * nesting, 100,000 links): time per thousand elements stays flat when a parse
 * is linear in the page, and grows with the page when it is not.
 */
import os from 'node:os';
import { Parser } from 'htmlparser2';
import { extractHtml } from '../../crawler/parse/html.js';
import { parseContent } from '../../crawler/parse/index.js';
import { loadCrawlerPlugins } from '../../crawler/plugins.js';
import { Conf } from '../../shared/conf.js';
import type { ContentRecord, FetchRecord } from '../../segments/segment.js';

const SENTENCES = [
  'The crawler fetches each page politely and keeps a delay between two requests to the same host.',
  'Every outlink is normalized and filtered before it is stored with its anchor text.',
  'Updatedb merges the fetch status of a page with what the database already knows about it.',
  'Pages that did not change since the last fetch keep their signature and move to a longer interval.',
  'The searcher ranks candidate documents with BM25F and a small prior taken from the link graph.',
  'Anchor texts from other pages often describe a document better than its own title does.',
];

function makePage(i: number): string {
  const para = (n: number) => {
    const words = Array.from({ length: 6 }, (_, k) => SENTENCES[(i + k) % SENTENCES.length]).join(' ').split(' ');
    return words.slice(0, n).join(' ');
  };
  const links = Array.from({ length: 40 }, (_, k) => `<li><a href="/p${(i + k) % 500}.html">link ${para(3)}</a></li>`).join('');
  const body = Array.from({ length: 30 }, () => `<p>${para(60)} &amp; more.</p>`).join('\n');
  return `<!doctype html><html${i % 2 ? ' lang="en"' : ''}><head><title>Page ${i}</title><meta name="description" content="${para(12)}">
<script>var x = ${i};</script><style>p{}</style></head><body><nav><ul>${links}</ul></nav><main>${body}</main><footer>${para(10)}</footer></body></html>`;
}

export default async () => {
  const load = os.loadavg()[0]!;
  const conf = Conf.load();
  const plugins = await loadCrawlerPlugins(conf);
  const pages = Array.from({ length: 200 }, (_, i) => makePage(i));
  const items = pages.map((p, i) => {
    const url = `http://127.0.4.1/p${i}.html`;
    const content: ContentRecord = { url, contentType: 'text/html; charset=utf-8', charset: 'utf-8', bytes: Buffer.from(p), truncated: false };
    const fetch: FetchRecord = { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {} };
    return { content, fetch };
  });
  const bytes = items.reduce((s, x) => s + x.content.bytes.length, 0);
  const run = async (label: string, fn: () => void | Promise<void>) => {
    await fn(); // warm-up
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 3000) {
      await fn();
      n++;
    }
    const s = (performance.now() - t0) / 1000;
    return { label, mbs: (n * bytes) / 2 ** 20 / s, pps: (n * items.length) / s };
  };
  const bare = await run('bare htmlparser2 (decodeEntities, no callbacks)', () => {
    for (const x of items) new Parser({}, { decodeEntities: true }).end(x.content.bytes.toString('utf8'));
  });
  const full = await run('parseContent (parse-html + outlinks + MD5 + language)', async () => {
    for (const x of items) await parseContent(plugins, conf, x.content, x.fetch);
  });
  const rows = [bare, full].map((r) => `| ${r.label} | ${r.mbs.toFixed(1)} | ${Math.round(r.pps)} | ${(r.mbs / bare.mbs).toFixed(2)}× |`);
  const hostile = await hostilePages(plugins, conf);
  return {
    title: 'Parse throughput',
    markdown: `${items.length} generated pages of ${Math.round(bytes / items.length / 1024)} KiB (40 navigation links each, half without a declared language, English prose), 3 s per mode, one core. Load average when the run began: ${load.toFixed(1)} on ${os.cpus().length} cores${load > 1.5 ? ' (the machine was shared: absolute figures are low, compare the ratios)' : ''}.

| mode | MB/s | pages/s | vs bare |
|---|---|---|---|
${rows.join('\n')}

${hostile}

Command: \`npm run bench -- parse\`.`,
  };
};

/** Milliseconds of one call (the best of `tries`). */
async function timeOf(fn: () => unknown, tries: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < tries; i++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

async function hostilePages(plugins: Awaited<ReturnType<typeof loadCrawlerPlugins>>, conf: Conf): Promise<string> {
  const rows: string[] = [];
  for (const pairs of [10_000, 20_000, 40_000]) {
    const html = `${'<div><span>'.repeat(pairs)}bottom`;
    const bare = await timeOf(() => new Parser({}, { decodeEntities: true, lowerCaseTags: true }).end(html), 1);
    const capped = await timeOf(() => extractHtml(html), 3);
    const k = (2 * pairs) / 1000;
    rows.push(`| ${pairs.toLocaleString('en')} unclosed \`<div><span>\` pairs | ${bare.toFixed(0)} ms (${(bare / k).toFixed(2)} a thousand) | ${capped.toFixed(0)} ms (${(capped / k).toFixed(2)} a thousand) |`);
  }
  for (const links of [25_000, 50_000, 100_000]) {
    const html = `<title>links</title>${Array.from({ length: links }, (_, i) => `<a href="/l${i}">l</a>`).join('')}`;
    const url = 'http://127.0.4.1/links';
    const content: ContentRecord = { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(html), truncated: false };
    const fetch: FetchRecord = { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {} };
    const bare = await timeOf(() => new Parser({}, { decodeEntities: true, lowerCaseTags: true }).end(html), 3);
    const full = await timeOf(() => parseContent(plugins, conf, content, fetch), 3);
    const k = links / 1000;
    rows.push(`| ${links.toLocaleString('en')} links | ${bare.toFixed(0)} ms (${(bare / k).toFixed(2)} a thousand) | ${full.toFixed(0)} ms (${(full / k).toFixed(2)} a thousand), parseContent |`);
  }
  return `Hostile pages as they grow, one page at a time (best of 3; htmlparser2 on the nested pages: one run). htmlparser2 keeps its open elements in an array it grows with \`unshift\`, so unclosed nesting costs it time quadratic in the page; parse-html caps nesting at 512 open elements (crawler/parse/html-nesting.ts).

| page | bare htmlparser2 | parse-html |
|---|---|---|
${rows.join('\n')}`;
}
