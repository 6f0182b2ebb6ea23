/**
 * The crawl report: its tallies as tables of cases, then a real crawl of a
 * loopback web with errors, a robots denial, a redirect and a duplicate,
 * whose report.html `crawl` writes and the searcher serves at /report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bucketFor, dueBuckets, rateSeries, Tally } from '../../../crawler/report/collect.js';
import { formatBytes, quantile } from '../../../crawler/report/html-report.js';
import { binCounts } from '../../../crawler/report/svg.js';
import { Conf } from '../../../shared/conf.js';
import { startSearcher } from '../../../searcher/server.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { hz, tempConf } from '../checkers/run-cli.js';

test('tallies: due buckets, rate series, bins, quantiles, examples', () => {
  const now = 1_000_000_000_000;
  const day = 86_400_000;
  assert.equal(
    dueBuckets([now - 5, now, now + 1, now + day, now + 2 * day, now + 40 * day, now + 400 * day], now).map((b) => b.count),
    [2, 2, 1, 0, 1, 1],
  );
  assert.equal(rateSeries([5000, 1000, 1500, 3999], 1), [2, 0, 1, 0, 1]);
  assert.equal(rateSeries([], 1), []);
  const spans: [number, number][] = [[0, 1], [59_000, 1], [61_000, 2], [3_600_000, 60], [10 * 3_600_000, 600]];
  for (const [span, want] of spans) assert.is(bucketFor(span), want, String(span));
  assert.equal(binCounts([0, 9, 10, 49, 50, 5000, 99999], [0, 10, 50, 5000]), [2, 2, 1, 2]);
  assert.is(quantile([1, 2, 3, 4], 0.5), 3);
  assert.is(quantile([], 0.9), 0);
  assert.is(formatBytes(512), '512 B');
  assert.is(formatBytes(1536), '1.5 KiB');
  const t = new Tally();
  for (const [k, u] of [['a', '1'], ['b', '2'], ['a', '3'], ['a', '4'], ['a', '5']]) t.add(k!, u!);
  assert.equal(t.top(1), [{ key: 'a', count: 4, examples: ['1', '3', '4'] }]);
});

let web: TestWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-report-'));
const conf = tempConf();
const page = (title: string, links: string[] = []) => `<html><head><title>${title}</title></head><body><p>${title} body text here.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.12',
    hosts: {
      docs: {
        robots: 'User-agent: *\nDisallow: /secret/\n',
        pages: {
          '/': page('Docs', ['/a.html', '/copy.html', '/secret/x.html', '/broken', '/old', '/missing.html']),
          '/a.html': page('Same words'),
          '/copy.html': page('Same words'),
          '/broken': { status: 500, body: 'oops' },
          '/old': { status: 301, location: '/a.html' },
          '/secret/x.html': page('Secret'),
        },
      },
      wiki: { pages: { '/': page('Wiki', ['/w1.html']), '/w1.html': page('Wiki one') } },
    },
  });
});
test.after(async () => {
  await web.stop();
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('crawl writes report.html; it has the charts and numbers; the searcher serves it at /report', async () => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('docs', '/')}\n${web.url('wiki', '/')}\n`);
  const dir = path.join(tmp, 'crawl');
  const r = await hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', 'crawl', seeds, '-dir', dir, '-depth', '2'], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  const file = path.join(dir, 'report.html');
  assert.match(r.out, /Crawl report: .*report\.html/);
  const html = fs.readFileSync(file, 'utf8');
  assert.not.match(html, /<script/i, 'no script needed to view it');
  assert.not.match(html, /<link|src="http/i, 'self-contained');
  assert.ok((html.match(/<svg /g) ?? []).length >= 10, 'charts');
  for (const section of ['status', 'rate', 'times', 'sizes', 'types', 'errors', 'robots', 'redirects', 'duplicates', 'due', 'segments']) assert.match(html, new RegExp(`<section id="${section}">`));
  const host = (h: string) => new URL(web.url(h, '/')).hostname;
  assert.match(html, new RegExp(`<td>${host('docs')}(:\\d+)?</td>`), 'pages per host');
  assert.match(html, /<td>Http code=500<\/td><td class="n">1<\/td><td><a href="[^"]*\/broken">/, 'the error with its example');
  assert.ok(html.includes(web.url('docs', '/secret/x.html')), 'the robots denial with its example');
  assert.ok(html.includes(`<a href="${web.url('docs', '/old')}">`), 'the redirect');
  assert.match(html, /2 fetched pages share their content with another \(1 group,/);
  assert.ok(html.includes(web.url('docs', '/copy.html')));
  assert.match(html, /round 2|<td class="n">2<\/td>/);
  assert.match(html, /text\/html/);

  const s = await startSearcher(Conf.load(), { dir, port: 0, host: '127.0.12.200' });
  try {
    const res = await fetch(`${s.url}/report`);
    assert.is(res.status, 200);
    assert.is(await res.text(), html);
  } finally {
    await s.close();
  }
  fs.rmSync(file);
  const s2 = await startSearcher(Conf.load(), { dir, port: 0, host: '127.0.12.200' });
  try {
    const res = await fetch(`${s2.url}/report`);
    assert.is(res.status, 404);
    assert.match(await res.text(), /hazelnut report/);
  } finally {
    await s2.close();
  }

  const again = await hz(['report', dir, '-out', path.join(tmp, 'r.html')], { confDir: conf.dir });
  assert.is(again.code, 0, again.err);
  assert.ok(fs.existsSync(path.join(tmp, 'r.html')));
  const bad = await hz(['report', tmp], { confDir: conf.dir });
  assert.is(bad.code, 1);
  assert.match(bad.err, /not a crawl directory/);
});

test.run();
