/**
 * The summaries file of a segment index: records read back as written in
 * each text form, URLs of one hash told apart, a record read while another
 * is in use, a torn file refused with its name (the searcher then
 * summarizes from the parse text and says why, once), and the searcher
 * reading the new file once a segment indexed again is merged and published.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { Conf } from '../../shared/conf.js';
import { segmentFile } from '../../shared/crawl-dir.js';
import { encodeSummaryMeta, readSummaryMeta } from '../../segments/offsets.js';
import type { SummaryText } from '../../segments/segment.js';
import { SUMMARIES_FILE, SummariesFile, SummariesWriter, urlHash } from '../../segments/summaries.js';
import { searchSettings } from '../../searcher/settings.js';
import { FetchedSegments } from '../../searcher/segments.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { makeCrawl, writeSegment, writeWebDb, type Crawl } from '../fixtures/crawlstore.js';

/** Pairs of URLs with one hash, found by trying. */
function collidingPairs(n: number): [string, string][] {
  const seen = new Map<number, string>();
  const pairs: [string, string][] = [];
  for (let i = 0; pairs.length < n && i < 1_000_000; i++) {
    const url = `http://h.test/p${i}`;
    const h = urlHash(url);
    const other = seen.get(h);
    if (other) pairs.push([other, url]);
    else seen.set(h, url);
  }
  assert.is(pairs.length, n, 'colliding URLs found');
  return pairs;
}

const record = (url: string, text: string, i: number, meta: SummaryText['meta'] = {}): SummaryText => ({
  url,
  text,
  length: text.length + i,
  offsets: Uint8Array.from({ length: 20 + i }, (_, k) => (k * 7 + i) & 0xff),
  meta,
});

function written(records: SummaryText[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-summaries-'));
  const w = new SummariesWriter(dir);
  for (const r of records) w.add(r);
  w.close();
  return dir;
}

const asRead = (f: SummariesFile, url: string) =>
  f.withRecord(url, (s) => ({ text: s.text.whole(), length: s.length, offsets: [...s.offsets!], meta: s.meta }))?.value;

test('records read back as written: each text form, URLs of one hash told apart, a URL absent', () => {
  const [[a, b], [c, d]] = collidingPairs(2) as [[string, string], [string, string]];
  const records = [
    record('http://docs.test/latin1', 'plain text with a café', 0, { furniture: [[0, 5]] }),
    record('http://docs.test/listed', `curly “quotes” in ${'a long text '.repeat(50)}`, 1),
    record('http://docs.test/wide', 'Ελληνικά κείμενα και λέξεις', 2, { sections: [{ offset: 0, heading: 'Εισαγωγή', level: 2 }] }),
    record(a, 'the first of one hash', 3),
    record(b, 'the second of one hash', 4),
    record(c, 'alone of its hash', 5),
  ];
  const dir = written(records);
  const f = SummariesFile.open(dir)!;
  try {
    for (const [i, r] of records.entries())
      assert.equal(asRead(f, r.url), { text: r.text, length: r.length, offsets: [...r.offsets], meta: readSummaryMeta(encodeSummaryMeta(r.meta)) }, r.url);
    assert.is(asRead(f, d), undefined, 'a URL of a written hash, not written');
    assert.is(asRead(f, 'http://docs.test/absent'), undefined);
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a record read while another is in use leaves that one whole', () => {
  const dir = written([record('http://a.test/', 'the outer record', 0), record('http://b.test/', 'the inner record', 1)]);
  const f = SummariesFile.open(dir)!;
  try {
    const got = f.withRecord('http://a.test/', (outer) => {
      const inner = f.withRecord('http://b.test/', (s) => s.text.whole())?.value;
      return [outer.text.whole(), inner, [...outer.offsets!].length];
    })?.value;
    assert.equal(got, ['the outer record', 'the inner record', 20]);
    assert.is(asRead(f, 'http://a.test/')!.text, 'the outer record');
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no file: none; an empty file: no records; a torn or garbled file: refused, naming it', () => {
  const dir = written([record('http://a.test/', 'some text here', 0)]);
  const empty = written([]);
  try {
    assert.is(SummariesFile.open(path.join(dir, 'nowhere')), undefined);
    const e = SummariesFile.open(empty)!;
    assert.is(asRead(e, 'http://a.test/'), undefined);
    e.close();
    const file = path.join(dir, SUMMARIES_FILE);
    const whole = fs.readFileSync(file);
    const garbled = Buffer.from(whole);
    garbled.writeUInt32LE(0, garbled.length - 4);
    fs.writeFileSync(file, garbled);
    assert.throws(() => SummariesFile.open(dir), (err: Error) => err.message.includes(file) && /no valid table/.test(err.message));
    fs.writeFileSync(file, whole.subarray(0, whole.length - 10));
    assert.throws(() => SummariesFile.open(dir), (err: Error) => err.message.includes(file) && /truncated/.test(err.message));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

const URL_OF_PAGE = 'http://docs.test/page';

/** A crawl of one page, its segment indexed (and merged, with `rebuild`); `body` gets the crawl, the segment and the indexing again. */
async function withIndexedPage(text: string, body: (crawl: Crawl, dir: string, rebuild: () => Promise<void>) => Promise<void>): Promise<void> {
  const crawl = makeCrawl();
  try {
    const dir = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 10)), [{ url: URL_OF_PAGE, title: 'Page', text }]);
    writeWebDb(crawl, []);
    const rebuild = async () => {
      await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
      await merge(crawl.conf, { index: crawl.index, segments: [dir] });
    };
    await rebuild();
    await body(crawl, dir, rebuild);
  } finally {
    crawl.cleanup();
  }
}

test('a segment whose summaries file cannot be read is summarized from its parse text, the problem told once', () =>
  withIndexedPage('words of the page to summarize', async (crawl, dir) => {
    const file = path.join(dir, 'index', SUMMARIES_FILE);
    fs.truncateSync(file, fs.statSync(file).size - 3);
    const segments = new FetchedSegments(crawl.segments);
    const told: string[] = [];
    segments.onProblem = (m) => told.push(m);
    try {
      for (let i = 0; i < 2; i++)
        assert.equal(
          segments.withSummarySource(path.basename(dir), URL_OF_PAGE, (s) => [s.text.whole(), s.offsets]),
          ['words of the page to summarize', undefined],
          'from the parse text, without stored offsets',
        );
      assert.is(told.length, 1);
      assert.ok(told[0]!.includes(file) && /truncated/.test(told[0]!), told[0]);
    } finally {
      segments.close();
    }
  }));

test('the searcher reads a segment indexed again once the index merged from it is published', () =>
  withIndexedPage('the first words of the page', async (crawl, dir, rebuild) => {
    const snaps = await CrawlSnapshots.open(crawl.dir, searchSettings(Conf.load()));
    try {
      const text = () => snaps.current.segments.withSummarySource(path.basename(dir), URL_OF_PAGE, (s) => s.text.whole());
      assert.is(text(), 'the first words of the page');
      const db = new Database(segmentFile(dir));
      db.prepare('UPDATE parse SET text = ? WHERE url = ?').run('other words since the page changed', URL_OF_PAGE);
      db.close();
      await rebuild();
      assert.is(await snaps.refresh(), true);
      assert.is(text(), 'other words since the page changed');
    } finally {
      snaps.close();
    }
  }));

test.run();
