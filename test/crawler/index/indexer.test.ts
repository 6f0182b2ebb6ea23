import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { indexSegments } from '../../../crawler/index/tool.js';
import { anchorTexts } from '../../../crawler/index/filters/anchor.js';
import { headingsOf } from '../../../crawler/index/filters/basic.js';
import { contentType, indexDate } from '../../../crawler/index/filters/more.js';
import { siteTitleSuffixes, stripTitleSuffix, titleSuffix } from '../../../crawler/index/title.js';
import { main } from '../../../crawler/cli.js';
import { openIndex } from '../../../shared/index/reader.js';
import { Segment } from '../../../segments/segment.js';
import { makeCrawl, md5, writeSegment, writeWebDb } from '../../fixtures/crawlstore.js';
import '../../../crawler/builtins.js';

const SUFFIX_CASES: [string, string | undefined][] = [
  ['Install — Acme Docs', 'Acme Docs'],
  ['Install - Guide | Acme Docs', 'Acme Docs'],
  ['e-mail setup', undefined],
  ['Meeting at 10:30', undefined],
  ['Acme Docs', undefined],
  [' - leading separator only', undefined],
];
for (const [title, want] of SUFFIX_CASES)
  test(`title suffix of ${JSON.stringify(title)}`, () => assert.is(titleSuffix(title), want));

test('site-wide title suffixes: most of a host, at least three pages', () => {
  const titles = [
    ...['Install', 'Configure', 'Upgrade', 'Home'].map((t) => ({ host: 'docs.test', title: t === 'Home' ? 'Acme Docs' : `${t} — Acme Docs` })),
    { host: 'blog.test', title: 'Post one | Blog' },
    { host: 'blog.test', title: 'Post two | Blog' },
    { host: 'wiki.test', title: 'A - x' },
    { host: 'wiki.test', title: 'B - y' },
    { host: 'wiki.test', title: 'C - z' },
  ];
  assert.equal([...siteTitleSuffixes(titles)], [['docs.test', 'Acme Docs']]);
  assert.is(stripTitleSuffix('Install — Acme Docs', 'Acme Docs'), 'Install');
  assert.is(stripTitleSuffix('Acme Docs', 'Acme Docs'), 'Acme Docs');
  assert.is(stripTitleSuffix('Other — Thing', 'Acme Docs'), 'Other — Thing');
});

test('anchors: every distinct text, repeats with diminishing returns (1 + floor(log2 n) copies)', () => {
  const links = (n: number, anchor: string) => Array.from({ length: n }, (_, i) => ({ source: `http://a.test/${anchor}/${i}`, anchor }));
  assert.equal(
    anchorTexts([
      { source: 'http://a.test/1', anchor: '' },
      { source: 'http://a.test/2', anchor: 'install  guide' },
      { source: 'http://a.test/3', anchor: 'Install guide' },
      { source: 'http://b.test/', anchor: 'setup' },
    ]),
    ['install guide', 'install guide', 'setup'],
  );
  assert.is(anchorTexts(links(50, 'event loop')).length, 6);
  assert.is(anchorTexts(links(1000, 'spam')).length, 10);
});

test('index-basic: headings from the parse sections, none when the parse has none', () => {
  assert.equal(headingsOf({ sections: [{ heading: 'Event loop', level: 2, offset: 0, id: 'loop' }, { heading: 'Timers', level: 3, offset: 40 }] }), ['Event loop', 'Timers']);
  assert.equal(headingsOf({}), []);
  assert.equal(headingsOf({ sections: 'garbage' }), []);
});

test('index-more: type and date', () => {
  assert.is(contentType('text/HTML; charset=utf-8', 'http://a.test/x'), 'text/html');
  assert.is(contentType(null, 'http://a.test/readme.txt'), 'text/plain');
  assert.is(contentType(null, 'http://a.test/dir/'), 'text/html');
  assert.is(indexDate('Tue, 15 Nov 1994 08:12:31 GMT', 0), '19941115');
  assert.is(indexDate('garbage', Date.UTC(2024, 1, 29, 23)), '20240229');
  assert.is(indexDate(undefined, Date.UTC(2024, 1, 29, 23)), '20240229');
});

test('index: one document per fetched, parsed, indexable page, with fields from the filters', async () => {
  const crawl = makeCrawl();
  try {
    const when = new Date(Date.UTC(2024, 0, 10, 8));
    const pages = [
      { url: 'http://docs.test/install', title: 'Install — Acme Docs', text: 'How to install the crawler on Linux.' },
      { url: 'http://docs.test/configure', title: 'Configure — Acme Docs', text: 'Configure the fetcher delay.', headers: { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' } },
      { url: 'http://docs.test/upgrade', title: 'Upgrade — Acme Docs', text: 'Upgrade steps.', lang: 'de' },
      { url: 'http://docs.test/private', title: 'Private — Acme Docs', text: 'Do not index me.', noindex: true },
      { url: 'http://docs.test/broken', title: 'Broken', text: 'x', parseStatus: 'failed' as const },
      { url: 'http://docs.test/gone', title: '', text: '', status: 'fetch_gone' as const },
    ];
    const dir = await writeSegment(crawl, when, pages);
    writeWebDb(crawl, [{ url: 'http://docs.test/install', linkScore: 2.5 }], [
      { target: 'http://docs.test/install', source: 'http://blog.test/a', anchor: 'installation guide' },
      { target: 'http://docs.test/install', source: 'http://blog.test/b', anchor: 'more from blog' },
      { target: 'http://docs.test/install', source: 'http://wiki.test/x', anchor: 'setup' },
    ]);
    const s = await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
    assert.is(s.indexed, 3);
    assert.equal(s.segments[0], { segment: path.basename(dir), indexed: 3, notFetched: 1, notParsed: 1, noindex: 1, filtered: 0 });
    const r = await openIndex(path.join(dir, 'index'));
    assert.is(r.meta.docCount, 3);
    const d = r.doc(r.idOf('http://docs.test/install')!);
    assert.is(d.title, 'Install', 'the site-wide suffix is stripped');
    assert.equal(d.anchors, ['installation guide', 'more from blog', 'setup'], 'every distinct anchor text, not one per host');
    assert.is(d.boost, 2.5, 'boost is the link score (scoring-opic indexerScore)');
    assert.is(d.host, 'docs.test');
    assert.is(d.site, 'docs.test');
    assert.is(d.segment, path.basename(dir));
    assert.is(d.digest, md5(pages[0]!.text));
    assert.is(d.type, 'text/html');
    assert.is(d.date, '20240110');
    assert.is(d.tstamp, when.getTime());
    assert.is(r.doc(r.idOf('http://docs.test/configure')!).date, '20240101');
    assert.is(r.doc(r.idOf('http://docs.test/configure')!).boost, 1, 'no link score: neutral boost');
    assert.is(r.doc(r.idOf('http://docs.test/upgrade')!).lang, 'de');
    assert.is(r.termFreq(r.idOf('http://docs.test/install')!, 'anchor', r.analyzer.term('installation')!), 1);
    assert.is(r.idOf('http://docs.test/private'), undefined);
    // A segment's own index holds its postings, which merge merges rather than inverting the pages again.
    assert.is(r.meta.postings, true);
    assert.ok(r.candidates(r.analyzer.terms('installation'), { limit: 5 }).includes(r.idOf('http://docs.test/install')!));
    const t = r.termId(r.analyzer.term('installation')!);
    assert.is(r.postingTfs(t)[1]![[...r.postings(t).docs].indexOf(r.idOf('http://docs.test/install')!)], 1, 'its anchor frequency, as the forward index has it');
    const seg = Segment.open(dir, { readonly: true });
    assert.ok(seg.hasPhase('indexed'));
    seg.close();
  } finally {
    crawl.cleanup();
  }
});

test('index: a title suffix is the site\'s over every segment of the crawl, so a re-crawl of one page strips it too', async () => {
  const crawl = makeCrawl();
  try {
    await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), ['Install', 'Configure', 'Upgrade'].map((t) => ({ url: `http://docs.test/${t.toLowerCase()}`, title: `${t} — Acme Docs`, text: `${t} the crawler.` })));
    const again = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), [{ url: 'http://docs.test/install', title: 'Install — Acme Docs', text: 'Install the crawler again.' }]);
    writeWebDb(crawl, [], []);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [again] });
    const r = await openIndex(path.join(again, 'index'));
    assert.is(r.doc(r.idOf('http://docs.test/install')!).title, 'Install', 'one page of the site in this segment, three in the one before');
  } finally {
    crawl.cleanup();
  }
});

test('index: an unparsed segment is refused; the CLI prints a summary line', async () => {
  const crawl = makeCrawl();
  try {
    const dir = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), [{ url: 'http://a.test/', title: 'A', text: 'alpha' }]);
    const seg = Segment.open(dir);
    seg.clearPhase('parsed');
    seg.close();
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] }).then(
      () => assert.unreachable('indexed an unparsed segment'),
      (e: Error) => assert.match(e.message, /is not parsed yet/),
    );
    assert.not.ok(fs.existsSync(path.join(dir, 'index')));
    const seg2 = Segment.open(dir);
    seg2.markPhase('parsed');
    seg2.close();
    let out = '';
    const io = { out: { write: (s: string) => ((out += s), true) } as never, err: { write: () => true } as never, tty: false };
    assert.is(await main(['index', crawl.webdb, '-dir', crawl.segments], io), 0);
    assert.match(out, /^index: 1 documents from 1 segment \(0 records skipped, 0 noindex\)\n$/);
  } finally {
    crawl.cleanup();
  }
});

test.run();
