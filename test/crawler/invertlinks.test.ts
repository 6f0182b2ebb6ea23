import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { invertlinks, invertRows, type InlinkRules } from '../../crawler/invertlinks.js';
import '../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../crawler/plugin/chains.js';
import { updatedb } from '../../crawler/updatedb/tool.js';
import { Conf } from '../../shared/conf.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { webDbSql } from '../fixtures/webdb-sql.js';

const H1 = 'http://127.0.4.1';
const H2 = 'http://127.0.4.2';
const NOW = Date.UTC(2024, 0, 10);
const PAGES = 300;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-linkdb-'));
const webdb = path.join(tmp, 'webdb');
const segments = path.join(tmp, 'segments');
const conf = Conf.load().with({ 'db.ignore.internal.links': 'false' });

const page = (i: number) => `${i % 2 ? H2 : H1}/p${i}`;

/** A fetched and parsed segment: each page with the given outlinks. */
async function segment(at: number, pages: { url: string; outlinks: { url: string; anchor: string }[] }[]): Promise<string> {
  const seg = Segment.create(segments, new Date(at));
  seg.addFetchlist(pages.map((p) => ({ url: p.url, host: new URL(p.url).hostname, score: 1, datum: { fetch_interval: 2592000, retries: 0 } })));
  const writer = new SegmentWriter(seg);
  for (const p of pages)
    writer.put(
      { url: p.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: NOW, headers: {} },
      { url: p.url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<p>x</p>'), truncated: false },
      { url: p.url, status: 'success', title: p.url, text: p.url, lang: 'en', signature: `sig-${at}-${p.url}`, outlinks: p.outlinks, meta: {} },
    );
  await writer.close();
  for (const ph of ['generated', 'fetched', 'parsed'] as const) seg.markPhase(ph);
  const dir = seg.dir;
  seg.close();
  return dir;
}

function inlinksOf(target: string): { source: string; anchor: string }[] {
  const db = webDbSql(webdb, { readonly: true });
  try {
    return db.prepare('SELECT source, anchor FROM inlinks WHERE target = ? ORDER BY source').all(target) as { source: string; anchor: string }[];
  } finally {
    db.close();
  }
}

{
  const db = webDbSql(webdb);
  const ins = db.prepare("INSERT INTO pages (url, host, status, fetch_time, fetch_interval, retries, score) VALUES (?, ?, 'db_unfetched', ?, 2592000, 0, 1)");
  for (let i = 0; i < PAGES; i++) ins.run(page(i), new URL(page(i)).hostname, NOW - 1000);
  db.close();
}

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('invertRows: Nutch rules from a table of link rows', () => {
  const r: InlinkRules = { ignoreInternal: true, ignoreNavigation: true, maxAnchorLength: 5, maxInlinks: 2 };
  const cases: [string, Parameters<typeof invertRows>[1], InlinkRules, ReturnType<typeof invertRows>][] = [
    ['internal links dropped', [{ source: `${H1}/a`, anchor: 'x', nav: 0 }], r, []],
    ['internal links kept when asked', [{ source: `${H1}/a`, anchor: 'x', nav: 0 }], { ...r, ignoreInternal: false }, [{ source: `${H1}/a`, anchor: 'x' }]],
    ['navigation dropped', [{ source: `${H2}/a`, anchor: 'x', nav: 1 }], r, []],
    ['anchor cut, self-link dropped', [{ source: `${H2}/a`, anchor: 'abcdefgh', nav: 0 }, { source: `${H1}/t`, anchor: 'me', nav: 0 }], r, [{ source: `${H2}/a`, anchor: 'abcde' }]],
    [
      'one anchor per source host, at most maxInlinks',
      [
        { source: `${H2}/a`, anchor: 'docs', nav: 0 },
        { source: `${H2}/b`, anchor: 'docs', nav: 0 },
        { source: `${H2}/c`, anchor: 'docs', nav: 0 },
      ],
      r,
      [
        { source: `${H2}/a`, anchor: 'docs' },
        { source: `${H2}/b`, anchor: '' },
      ],
    ],
  ];
  for (const [name, rows, rules, want] of cases) assert.equal(invertRows(`${H1}/t`, rows, rules), want, name);
});

test('a full inversion normalizes each distinct URL once, not once per link row', async () => {
  // Every page links to both home pages and to its neighbour: the home pages have PAGES inlinks each.
  const pages = Array.from({ length: PAGES }, (_, i) => ({
    url: page(i),
    outlinks: [
      { url: `${H1}/`, anchor: 'Home' },
      { url: `${H2}/`, anchor: 'Other home' },
      { url: page((i + 1) % PAGES), anchor: `next ${i}` },
    ],
  }));
  const plugins = await loadCrawlerPlugins(conf);
  const seg = await segment(NOW, pages);
  await updatedb(conf, { webdb, segments: [seg], normalize: true, filter: true, plugins, now: NOW });
  const normalize = plugins.normalizers.normalize.bind(plugins.normalizers);
  let calls = 0;
  plugins.normalizers.normalize = (u, scope) => (scope === 'linkdb' && calls++, normalize(u, scope));
  const s = await invertlinks(conf, { webdb, segments: [seg], plugins });
  plugins.normalizers.normalize = normalize;
  assert.is(s.targets, PAGES + 2);
  assert.ok(calls <= PAGES + 2, `${calls} normalizations for ${PAGES + 2} distinct URLs`);
  assert.is(inlinksOf(`${H1}/`).length, PAGES);
  assert.equal(inlinksOf(page(5)), [{ source: page(4), anchor: 'next 4' }]);
});

test('a re-crawl of two pages rebuilds only the URLs they link to, now or before', async () => {
  const seg = await segment(NOW + 60_000, [
    { url: page(4), outlinks: [{ url: page(7), anchor: 'seven' }] },
    { url: page(10), outlinks: [{ url: page(11), anchor: 'next 10' }] },
  ]);
  await updatedb(conf, { webdb, segments: [seg], normalize: true, filter: true, now: NOW + 60_000 });
  const s = await invertlinks(conf, { webdb, segments: [seg] });
  // Before: both homes and page(5) from page(4), both homes and page(11) from page(10); now page(7) and page(11).
  assert.is(s.targets, 5);
  assert.equal(inlinksOf(page(5)), [], 'the link page(4) dropped is gone');
  assert.equal(inlinksOf(page(7)), [
    { source: page(4), anchor: 'seven' },
    { source: page(6), anchor: 'next 6' },
  ]);
  assert.is(inlinksOf(`${H1}/`).length, PAGES - 2, 'page(4) and page(10) no longer link home');
});

test('links stored under other spellings join their key, however far apart the targets are read', async () => {
  // Without -normalize updatedb keeps the links as written; invertlinks keys them normalized. 1,200 other
  // targets sort between the two spellings of /t, so they are read in different batches.
  const own = path.join(tmp, 'spellings');
  const filler = Array.from({ length: 1200 }, (_, i) => ({ url: `${H1}/a${i}`, anchor: `a ${i}` }));
  const seg = await segment(NOW + 120_000, [
    { url: `${H2}/x`, outlinks: [{ url: `HTTP://127.0.4.1/t`, anchor: 'upper' }, ...filler] },
    { url: `${H2}/y`, outlinks: [{ url: `${H1}/t`, anchor: 'plain' }, { url: `HTTP://127.0.4.1/only-upper`, anchor: 'alone' }] },
    { url: `${H2}/z`, outlinks: [{ url: `${H1}/t`, anchor: 'plain' }] },
  ]);
  webDbSql(own).close();
  await updatedb(conf, { webdb: own, segments: [seg], now: NOW });
  const s = await invertlinks(conf, { webdb: own, segments: [seg] });
  assert.is(s.targets, 1203);
  const db = webDbSql(own, { readonly: true });
  try {
    const of = (t: string) => db.prepare('SELECT source, anchor FROM inlinks WHERE target = ? ORDER BY seq').all(t);
    // The upper-case spelling is read first, so its link comes first; one anchor text per source host.
    assert.equal(of(`${H1}/t`), [
      { source: `${H2}/x`, anchor: 'upper' },
      { source: `${H2}/y`, anchor: 'plain' },
      { source: `${H2}/z`, anchor: '' },
    ]);
    assert.equal(of(`${H1}/only-upper`), [{ source: `${H2}/y`, anchor: 'alone' }]);
    assert.equal(of('HTTP://127.0.4.1/t'), []);
    assert.equal(of(`${H1}/a7`), [{ source: `${H2}/x`, anchor: 'a 7' }]);
  } finally {
    db.close();
  }
});

test('the WebDB finds the links and inlinks of a source through an index', () => {
  const db = webDbSql(webdb, { readonly: true });
  try {
    for (const table of ['links', 'inlinks']) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT target FROM ${table} WHERE source = ?`).all('x') as { detail: string }[]).map((r) => r.detail).join('; ');
      assert.match(plan, /^SEARCH \S+ USING (COVERING )?INDEX/, `${table}: ${plan}`);
    }
  } finally {
    db.close();
  }
});

test.run();
