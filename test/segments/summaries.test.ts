/**
 * The summaries file of a segment index: records read back as written in
 * each text form, URLs of one hash told apart, a record read while another
 * is in use, a torn file refused with its name, a bad table entry refused
 * when it is read, not on open (which walks no entry; the searcher then
 * summarizes from the parse text and says why, once), and the searcher
 * reading the new file once a segment indexed again is merged and published.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { Conf } from '../../shared/conf.js';
import { segmentFile } from '../../shared/crawl-dir.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { IndexFileWriter } from '../../shared/index/format.js';
import { encodeSummaryMeta, readSummaryMeta, summaryPart } from '../../segments/offsets.js';
import { readCheckpoints, textCheckpoints } from '../../segments/checkpoints.js';
import { packOffsets, textOffsets } from '../fixtures/offsets-v3.js';
import { storedText } from '../../segments/summary-text.js';
import type { SummaryText } from '../../segments/segment.js';
import { SUMMARIES_FILE, SummariesFile, SummariesWriter, urlHash } from '../../segments/summaries.js';
import { searchSettings } from '../../searcher/settings.js';
import { FetchedSegments } from '../../searcher/fetched-segments.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { makeCrawl, writeSegment, writeWebDb, type Crawl } from '../fixtures/crawlstore.js';
import '../../crawler/builtins.js';

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

const analyzer = new Analyzer({ stemEnglish: true });
/** Each written page's parse text, as the segment would give it. */
const texts = new Map<string, string>();

const record = (url: string, text: string, meta: SummaryText['meta'] = {}): SummaryText => {
  texts.set(url, text);
  return { url, length: text.length, checkpoints: textCheckpoints(analyzer, text), meta };
};
/** Checkpoints as compared: without the text they come with. */
const plainCheckpoints = (data: Uint8Array) => {
  const { count, tokens, chars } = readCheckpoints(data)!;
  return { count, tokens: [...tokens], chars: [...chars] };
};

function written(records: SummaryText[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-summaries-'));
  const w = new SummariesWriter(dir);
  for (const r of records) w.add(r);
  w.close();
  return dir;
}

const asRead = (f: SummariesFile, url: string) =>
  f.withRecord(url, () => texts.get(url), (s) => ({
    text: s.text.whole(),
    length: s.length,
    ...(s.offsets ? { offsets: [...s.offsets] } : {}),
    ...(s.checkpoints ? { checkpoints: { count: s.checkpoints.count, tokens: [...s.checkpoints.tokens], chars: [...s.checkpoints.chars] }, whole: s.checkpoints.text === texts.get(url) } : {}),
    meta: s.meta,
  }))?.value;

test('records read back as written: each text form, URLs of one hash told apart, a URL absent', () => {
  const [[a, b], [c, d]] = collidingPairs(2) as [[string, string], [string, string]];
  const records = [
    record('http://docs.test/latin1', 'plain text with a café', { furniture: [[0, 5]] }),
    record('http://docs.test/listed', `curly “quotes” in ${'a long text '.repeat(50)}`),
    record('http://docs.test/wide', 'Ελληνικά κείμενα και λέξεις', { sections: [{ offset: 0, heading: 'Εισαγωγή', level: 2 }] }),
    record('http://docs.test/long', `${'camelCase readFileSync words and more words '.repeat(2000)}`),
    record(a, 'the first of one hash'),
    record(b, 'the second of one hash'),
    record(c, 'alone of its hash'),
  ];
  const dir = written(records);
  const f = SummariesFile.open(dir)!;
  try {
    for (const r of records)
      assert.equal(asRead(f, r.url), { text: summaryPart(texts.get(r.url)!), length: r.length, checkpoints: plainCheckpoints(r.checkpoints), whole: true, meta: readSummaryMeta(encodeSummaryMeta(r.meta)) }, r.url);
    assert.is(asRead(f, d), undefined, 'a URL of a written hash, not written');
    assert.is(asRead(f, 'http://docs.test/absent'), undefined);
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a record read while another is in use leaves that one whole', () => {
  const dir = written([record('http://a.test/', 'the outer record'), record('http://b.test/', 'the inner record')]);
  const f = SummariesFile.open(dir)!;
  try {
    const got = f.withRecord('http://a.test/', () => texts.get('http://a.test/'), (outer) => {
      const inner = f.withRecord('http://b.test/', () => texts.get('http://b.test/'), (s) => s.text.whole())?.value;
      return [outer.text.whole(), inner, outer.checkpoints!.count];
    })?.value;
    assert.equal(got, ['the outer record', 'the inner record', 3]);
    assert.is(asRead(f, 'http://a.test/')!.text, 'the outer record');
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no file: none; an empty file: no records; a torn or garbled file: refused, naming it', () => {
  const dir = written([record('http://a.test/', 'some text here')]);
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

test('a bad table entry: the file opens without walking its table; that entry is refused when read, naming the file, the others read', () => {
  const urls = ['http://a.test/one', 'http://a.test/two'];
  const dir = written(urls.map((u) => record(u, `the text of ${u}`)));
  try {
    const file = path.join(dir, SUMMARIES_FILE);
    const bytes = fs.readFileSync(file);
    // The table's two entries end where the 16-byte footer starts; the first (the lower hash) gets a position past the records.
    bytes.writeDoubleLE(1e12, bytes.length - 16 - 2 * 16 + 8);
    fs.writeFileSync(file, bytes);
    const [bad, good] = [...urls].sort((x, y) => urlHash(x) - urlHash(y));
    const f = SummariesFile.open(dir)!;
    try {
      assert.throws(() => asRead(f, bad!), (err: Error) => err.message.includes(file) && /bad table entry \(0\)/.test(err.message));
      assert.is(asRead(f, good!)!.text, `the text of ${good}`);
    } finally {
      f.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A summaries file as older hazelnut wrote it: each record a head of u32s,
 * the URL, the meta and `body` (its byte counts in the head after the URL's
 * and the meta's, then `more`), the table, the footer tagged `tag`.
 */
function writtenAsBefore(records: SummaryText[], tag: number, record: (r: SummaryText) => { body: Uint8Array[]; more: number[] }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-summaries-'));
  const out = new IndexFileWriter(dir, SUMMARIES_FILE);
  const entries: [number, number, number][] = [];
  let at = 0;
  for (const r of records) {
    const url = Buffer.from(r.url);
    const meta = Buffer.from(encodeSummaryMeta(r.meta));
    const { body, more } = record(r);
    const fields = [url.length, meta.length, ...body.map((b) => b.byteLength), ...more];
    const head = Buffer.alloc(4 * fields.length);
    fields.forEach((v, i) => head.writeUInt32LE(v, 4 * i));
    const rec = Buffer.concat([head, url, meta, ...body]);
    out.write(rec);
    entries.push([urlHash(r.url), rec.length, at]);
    at += rec.length;
  }
  entries.sort((x, y) => x[0] - y[0]);
  const table = Buffer.alloc(16 * entries.length + 16);
  entries.forEach(([h, size, pos], k) => (table.writeUInt32LE(h, 16 * k), table.writeUInt32LE(size, 16 * k + 4), table.writeDoubleLE(pos, 16 * k + 8)));
  table.writeDoubleLE(at, 16 * entries.length);
  table.writeUInt32LE(entries.length, 16 * entries.length + 8);
  table.writeUInt32LE(tag, 16 * entries.length + 12);
  out.write(table);
  out.close();
  return dir;
}

/** The start of the text in each record ('HSMS'): a head of six u32s (URL, meta, text and offsets bytes, the length, the form), the offsets unpacked. */
const writtenWithText = (records: SummaryText[]) =>
  writtenAsBefore(records, 0x534d5348, (r) => {
    const { bytes, form } = storedText(summaryPart(texts.get(r.url)!));
    return { body: [bytes, textOffsets(analyzer, texts.get(r.url)!)], more: [r.length, form] };
  });

/** Every word's offsets packed, no text ('HSM2'): a head of four u32s (URL, meta, offsets bytes, the length). */
const writtenPacked = (records: SummaryText[]) => writtenAsBefore(records, 0x324d5348, (r) => ({ body: [packOffsets(textOffsets(analyzer, texts.get(r.url)!))!], more: [r.length] }));

test('a file the release before wrote, with the start of each text in it, reads as it did', () => {
  const records = [record('http://docs.test/old', `older “text” ${'with words '.repeat(9000)}`, { furniture: [[0, 5]] }), record('http://docs.test/short', 'short')];
  const dir = writtenWithText(records);
  const f = SummariesFile.open(dir)!;
  try {
    for (const r of records)
      assert.equal(
        f.withRecord(r.url, () => assert.unreachable('the text is in the file') as never, (s) => ({ text: s.text.whole(), length: s.length, offsets: [...s.offsets!] }))?.value,
        { text: summaryPart(texts.get(r.url)!), length: r.length, offsets: [...textOffsets(analyzer, texts.get(r.url)!)] },
      );
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a file with every word’s offsets packed reads as it did', () => {
  const records = [record('http://docs.test/packed', `packed “text” ${'readFileSync words '.repeat(5000)}`, { furniture: [[0, 5]] }), record('http://docs.test/short', 'short')];
  const dir = writtenPacked(records);
  const f = SummariesFile.open(dir)!;
  try {
    for (const r of records)
      assert.equal(asRead(f, r.url), { text: summaryPart(texts.get(r.url)!), length: r.length, offsets: [...textOffsets(analyzer, texts.get(r.url)!)], meta: readSummaryMeta(encodeSummaryMeta(r.meta)) }, r.url);
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the file holds no text and no offset a word: a small fraction of the text it describes; a text changed since is read without the checkpoints, a page without text has none', () => {
  const words = 'the quick brown fox jumps over a lazy dog while readFileSync reads configuration files and databases vacuum journals'.split(' ');
  const long = (i: number) => Array.from({ length: 3000 }, (_, k) => words[(k * 7 + i * 13 + ((k * k) % 11)) % words.length]).join(' ');
  const records = Array.from({ length: 20 }, (_, i) => record(`http://docs.test/p${i}`, long(i)));
  const dir = written(records);
  const textBytes = records.reduce((n, r) => n + Buffer.byteLength(texts.get(r.url)!), 0);
  const fileBytes = fs.statSync(path.join(dir, SUMMARIES_FILE)).size;
  assert.ok(fileBytes < 0.06 * textBytes, `${fileBytes} bytes for ${textBytes} bytes of text`);
  const f = SummariesFile.open(dir)!;
  try {
    const url = records[3]!.url;
    assert.equal(asRead(f, url)!.checkpoints, plainCheckpoints(records[3]!.checkpoints));
    texts.set(url, `${texts.get(url)} and a few words more`);
    assert.equal(asRead(f, url)!, { text: texts.get(url), length: texts.get(url)!.length, meta: readSummaryMeta(encodeSummaryMeta({})) });
    texts.delete(url);
    assert.is(asRead(f, url), undefined);
  } finally {
    f.close();
    fs.rmSync(dir, { recursive: true, force: true });
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
      db.prepare('UPDATE parse_rows SET text = ? WHERE id = (SELECT rowid FROM fetch WHERE url = ?)').run('other words since the page changed', URL_OF_PAGE);
      db.close();
      await rebuild();
      assert.is(await snaps.refresh(), true);
      assert.is(text(), 'other words since the page changed');
    } finally {
      snaps.close();
    }
  }));

test.run();
