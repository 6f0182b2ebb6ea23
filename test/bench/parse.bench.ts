/**
 * Parse throughput: parseContent (parse-html, outlink rules, signature,
 * language) as the crawl runs it, on three corpora — generated pages of
 * prose and navigation (half without a declared language), the crawl
 * benchmark's web (crawl-web.ts) and devweb's real documentation when it is
 * there (parse-corpus.ts) — beside two baselines on the same pages in the
 * same run: htmlparser2 with no callbacks, and the crawl benchmark's bare
 * loop's extraction (htmlparser2 and a WHATWG URL per link). CPU time a page,
 * best of the rounds. With PARSE_BASELINE=<checkout>, that checkout's
 * parseContent is measured beside this one's, round by round.
 * Then hostile pages as they grow (unclosed nesting, 100,000 links): time per
 * thousand elements stays flat when a parse is linear in the page, and grows
 * with the page when it is not.
 */
import os from 'node:os';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { detectCharset } from '../../crawler/encoding.js';
import { extractHtml } from '../../crawler/parse/html.js';
import { parseContent } from '../../crawler/parse/parse-content.js';
import '../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../crawler/plugin/chains.js';
import { Conf } from '../../shared/conf.js';
import type { ContentRecord, FetchRecord } from '../../segments/segment.js';
import { checkoutParse, devwebPages, generatedWebPages, hostsOf, type CorpusPage } from './parse-corpus.js';

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

/** The records a fetch stores for a page: its charset as the fetcher detects it. */
function records(pages: CorpusPage[]) {
  return pages.map((p) => {
    const content: ContentRecord = { url: p.url, contentType: p.contentType, charset: detectCharset(p.bytes, p.contentType).charset, bytes: p.bytes, truncated: false };
    const fetch: FetchRecord = { url: p.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: p.headers };
    return { content, fetch, html: p.bytes.toString('utf8') };
  });
}

/** The crawl benchmark's bare loop's work on a page once fetched (crawl-child.ts); a link no URL can be made of is passed over. */
function bareLoopExtraction(html: string, url: string): number {
  const found: string[] = [];
  new Parser(
    {
      onopentag(name, attrs) {
        if (name !== 'a' || !attrs.href) return;
        try {
          found.push(new URL(attrs.href, url).href);
        } catch {
          // devweb's pages hold a few, e.g. http://<username>@<servername>/
        }
      },
    },
    { decodeEntities: true },
  ).end(html);
  return found.length;
}

const ROUNDS = 5;
/** Seconds each corpus is parsed for, at least, per mode and round. */
const ROUND_S = 0.6;

/** CPU milliseconds a page of each mode, the best of ROUNDS rounds that alternate the modes. */
async function measure(modes: Record<string, () => unknown>, pages: number): Promise<Record<string, number>> {
  const best: Record<string, number> = {};
  for (const fn of Object.values(modes)) await fn(); // warm-up
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, fn] of Object.entries(modes)) {
      let n = 0;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      while (n === 0 || performance.now() - t0 < ROUND_S * 1000) {
        await fn();
        n++;
      }
      const c = process.cpuUsage(c0);
      best[name] = Math.min(best[name] ?? Infinity, (c.user + c.system) / 1000 / (n * pages));
    }
  return best;
}

export default async () => {
  const load = os.loadavg()[0]!;
  const baselineRoot = process.env.PARSE_BASELINE;
  const bench: { label: string; pages: CorpusPage[] }[] = [
    {
      label: 'generated prose and navigation (40 links, half without a language)',
      pages: Array.from({ length: 200 }, (_, i) => ({ url: `http://127.0.4.1/p${i}.html`, bytes: Buffer.from(makePage(i)), contentType: 'text/html; charset=utf-8', headers: {} })),
    },
    { label: 'the crawl benchmark\'s web (crawl-web.ts, 20 links)', pages: generatedWebPages(2, 250) },
    { label: "devweb's documentation", pages: devwebPages() },
  ];
  const rows: string[] = [];
  for (const { label, pages } of bench.filter((b) => b.pages.length)) {
    const recs = records(pages);
    // The crawl's configuration, scoped to the pages' hosts as a crawl seeded with them is.
    const crawlConf = { resources: ['crawl-tool.xml'], overrides: { 'urlfilter.host.allow': hostsOf(pages) } };
    const mine = await checkoutParse(path.resolve(import.meta.dirname, '..', '..'), crawlConf);
    const modes: Record<string, () => unknown> = {
      bare: () => {
        for (const r of recs) new Parser({}, { decodeEntities: true }).end(r.html);
      },
      loop: () => {
        for (const r of recs) bareLoopExtraction(r.html, r.content.url);
      },
      parse: async () => {
        for (const r of recs) await mine(r.content, r.fetch);
      },
    };
    if (baselineRoot) {
      const theirs = await checkoutParse(path.resolve(baselineRoot), crawlConf);
      modes.baseline = async () => {
        for (const r of recs) await theirs(r.content, r.fetch);
      };
    }
    const ms = await measure(modes, recs.length);
    const kib = recs.reduce((s, r) => s + r.content.bytes.length, 0) / recs.length / 1024;
    const cell = (m: number) => `${m.toFixed(3)} (${(m / ms.bare!).toFixed(1)}×, ${(m / ms.loop!).toFixed(2)}×)`;
    rows.push(
      `| ${label}: ${recs.length} pages, ${kib.toFixed(0)} KiB | ${ms.bare!.toFixed(3)} | ${ms.loop!.toFixed(3)} | ${cell(ms.parse!)} |${baselineRoot ? ` ${cell(ms.baseline!)} | ${(ms.baseline! / ms.parse!).toFixed(2)}× |` : ''}`,
    );
  }
  const hostile = await hostilePages();
  return {
    title: 'Parse throughput',
    markdown: `CPU milliseconds a page (best of ${ROUNDS} rounds of at least ${ROUND_S} s per mode, the modes alternating), one core. htmlparser2 alone: no callbacks, entities decoded. The bare loop: what the crawl benchmark's bare loop does with a page it fetched (htmlparser2 and \`new URL\` for each \`<a href>\`). parseContent: as the crawl's parse thread runs it (the crawl's configuration, its seed hosts allowed, the charset as the fetcher detected it), in parentheses ÷ htmlparser2 alone and ÷ the bare loop${baselineRoot ? `; the baseline is parseContent of ${baselineRoot}, measured in the same rounds` : ''}. Load average when the run began: ${load.toFixed(1)} on ${os.cpus().length} cores${load > 1.5 ? ' (the machine was shared: absolute figures are high, compare the ratios)' : ''}.

| pages | htmlparser2 alone | bare loop | parseContent |${baselineRoot ? ' baseline parseContent | baseline ÷ this |' : ''}
|---|---|---|---|${baselineRoot ? '---|---|' : ''}
${rows.join('\n')}

${hostile}

Command: \`npm run bench -- parse\` (\`PARSE_BASELINE=<checkout> npm run bench -- parse\` adds another checkout's parseContent). \`tsx test/bench/parse-output.ts --against=<checkout>\` compares the two checkouts' parse records on the same corpora, byte for byte.`,
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

async function hostilePages(): Promise<string> {
  const conf = Conf.load();
  const plugins = await loadCrawlerPlugins(conf);
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
