/** Summaries from the index's positions and the word offsets stored at index time equal the summaries from the whole page. */
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { indexSegments } from '../../crawler/index/tool.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { openIndex } from '../../shared/index/reader.js';
import { readOffsets, encodeOffsets, SUMMARY_TEXT_CHARS, summaryMeta, textOffsets } from '../../segments/offsets.js';
import { Segment } from '../../segments/segment.js';
import { hitDetails, type SummaryWords } from '../../searcher/details.js';
import { typedWords } from '../../searcher/highlight.js';
import { search } from '../../searcher/search.js';
import { FetchedSegments } from '../../searcher/segments.js';
import { searchSettings } from '../../searcher/settings.js';
import { summarize, summarizeRanges, summaryToText, type SummaryOptions } from '../../searcher/summary.js';
import { offsetsAgree, offsetWords, type TextHits } from '../../searcher/summary-offsets.js';
import { makeCrawl, writeSegment, writeWebDb } from '../fixtures/crawlstore.js';
import { filler, long, SUMMARY_CASES, type Page } from './summary-pages.js';

const stem = new Analyzer({ stemEnglish: true });
const plain = new Analyzer();

/** The query terms' places as the index records them: token indexes of the text. */
function hitsOf(analyzer: Analyzer, text: string, terms: string[]): TextHits {
  const want = new Set(terms);
  const hits: TextHits = { at: [], terms: [] };
  for (const [i, t] of analyzer.tokens(text).entries()) if (want.has(t.term)) (hits.at.push(i), hits.terms.push(t.term));
  return hits;
}

const MORE_CASES: [name: string, p: Page, query: string, opts: SummaryOptions][] = [
  ['camelCase identifiers and their parts', { text: long(['readFile', 'fs.readFileSync', 'file']) }, 'readFile file', { context: 3, length: 30 }],
  ['a non-ASCII query term', { text: `Москва и Петербург ${filler(80)} Москва` }, 'москва', { context: 2, length: 10 }],
  ['hits in every sentence', { text: Array.from({ length: 200 }, (_, i) => `vacuum ${filler(i % 9, i)}.`).join(' ') }, 'vacuum', { context: 5, length: 30 }],
  ['more hits than the summarizer reads', { text: Array.from({ length: 1500 }, (_, i) => `vacuum ${filler(8, i)} journal ${filler(8, i + 1)}`).join(' ') }, 'vacuum journal', { context: 5, length: 30 }],
];

for (const analyzer of [stem, plain])
  for (const [name, p, query, opts] of [...SUMMARY_CASES, ...MORE_CASES])
    test(`${name} (${analyzer.options.stemEnglish ? 'stemming' : 'no stemming'})`, () => {
      const terms = analyzer.terms(query);
      const plan = { furniture: p.furniture ?? [], accept: typedWords(analyzer, query) };
      const whole = summarize(p.text, analyzer.tokens(p.text), new Set(terms), opts, { ...plan, sections: p.sections ?? [] });
      const offsets = readOffsets(textOffsets(analyzer, p.text))!;
      const hits = hitsOf(analyzer, p.text, terms);
      assert.ok(offsetsAgree(analyzer, p.text, offsets, hits));
      const parts = offsetWords(offsets, hits, opts, p.furniture ?? []);
      const sections = [...(p.sections ?? []), ...parts.cuts].sort((a, b) => a - b);
      assert.equal(summarizeRanges(p.text, parts.words, opts, { ...plan, sections, more: parts.more }), whole);
    });

test('only the words around the hits are read on a long page', () => {
  const text = long(['vacuum', 'journal'], 2000);
  const offsets = readOffsets(textOffsets(stem, text))!;
  const parts = offsetWords(offsets, hitsOf(stem, text, ['vacuum']), { context: 5, length: 30 }, []);
  const read = parts.words.ranges.reduce((n, [from, to]) => n + to - from, 0);
  assert.ok(read < 50, `${read} tokens of ${offsets.count}`);
  assert.ok(parts.more);
});

test('past the words the index kept, no hit is known and more text is said to follow', () => {
  const text = `${filler(30)} vacuum ${filler(30)}`;
  const offsets = readOffsets(textOffsets(plain, text))!;
  const parts = offsetWords(offsets, hitsOf(plain, text, ['vacuum']), { context: 2, length: 10 }, [], 20);
  assert.equal(parts.words.hits, []);
  assert.ok(parts.more);
});

/** A record as hazelnut wrote it before version 2: LEB128 varints of the version, the count, then per token its step and length. */
function version1(spans: readonly { start: number; end: number }[]): Buffer {
  const out: number[] = [];
  const push = (v: number) => {
    for (; v > 0x7f; v >>>= 7) out.push((v & 0x7f) | 0x80);
    out.push(v);
  };
  push(1);
  push(spans.length);
  let prev = 0;
  for (const s of spans) {
    push(s.start - prev);
    push(s.end - s.start);
    prev = s.start;
  }
  return Buffer.from(out);
}

test('offsets: round trip, columns read in place; version 1 still read; another version or a damaged record is refused', () => {
  const spans = [
    { start: 0, end: 3 },
    { start: 4, end: 12 },
    { start: 4, end: 8 },
    { start: 300, end: 301 },
    { start: 59_990, end: SUMMARY_TEXT_CHARS },
  ];
  const data = encodeOffsets(spans);
  assert.is(data.length, 8 + 4 * spans.length, 'a version, a count and two 16-bit columns');
  const d = readOffsets(data)!;
  assert.ok(d.starts instanceof Uint16Array && d.starts.buffer === data.buffer, 'read where it is stored, not decoded');
  const spansOf = (o: ReturnType<typeof readOffsets>) => [...o!.starts].map((s, i) => ({ start: s, end: o!.ends[i] }));
  assert.equal(spansOf(d), spans);
  // A record at an odd offset (a Buffer in a pool) is copied, not misread.
  assert.equal(spansOf(readOffsets(Buffer.concat([Buffer.from([0]), data]).subarray(1))), spans);
  assert.equal(spansOf(readOffsets(version1(spans))), spans);
  assert.is(readOffsets(data.subarray(0, data.length - 1)), undefined);
  assert.is(readOffsets(Buffer.concat([Buffer.from([3]), data.subarray(1)])), undefined);
  assert.is(readOffsets(Buffer.concat([data, Buffer.from([0])])), undefined);
  const v1 = version1(spans);
  assert.is(readOffsets(v1.subarray(0, v1.length - 1)), undefined);
  assert.is(readOffsets(Buffer.concat([v1, Buffer.from([0])])), undefined);
});

test('offsets cover the start of a long text, without a word cut at its end', () => {
  const n = (SUMMARY_TEXT_CHARS - 3) / 3;
  const text = 'ab '.repeat(n) + 'vacuum';
  const d = readOffsets(textOffsets(plain, text))!;
  assert.is(d.count, n, 'the cut word "vac" is left out');
  assert.is(d.ends[n - 1], SUMMARY_TEXT_CHARS - 4);
});

test('the stored meta holds the sections and furniture that start in the part summaries read', () => {
  const at = (offset: number) => ({ heading: `h${offset}`, level: 2, offset });
  const meta = { sections: [at(0), at(SUMMARY_TEXT_CHARS - 1), at(SUMMARY_TEXT_CHARS)], furniture: [[0, 10], [SUMMARY_TEXT_CHARS - 5, SUMMARY_TEXT_CHARS + 5], [SUMMARY_TEXT_CHARS, SUMMARY_TEXT_CHARS + 9]] as [number, number][], description: 'x' };
  assert.equal(summaryMeta(meta), { sections: [at(0), at(SUMMARY_TEXT_CHARS - 1)], furniture: [[0, 10], [SUMMARY_TEXT_CHARS - 5, SUMMARY_TEXT_CHARS + 5]] });
  assert.equal(summaryMeta({}), {});
});

test('offsets that no longer describe the text are not trusted', () => {
  const text = `${filler(10)} vacuum ${filler(10)}`;
  const offsets = readOffsets(textOffsets(plain, text))!;
  const hits = hitsOf(plain, text, ['vacuum']);
  assert.ok(offsetsAgree(plain, text, offsets, hits));
  assert.not.ok(offsetsAgree(plain, `w1 ${text}`, offsets, hits), 'the text changed before the hit');
  assert.not.ok(offsetsAgree(plain, text.slice(0, 20), offsets, hits), 'the text is shorter than the offsets');
});

test('index stores word offsets beside the parse; the searcher summarizes from them as from the whole text', async () => {
  const crawl = makeCrawl();
  try {
    const body = (w: string[]) => long(w, 120);
    const pages = [
      { url: 'http://docs.test/vacuum', title: 'Vacuum', text: body(['vacuum', 'journal', 'VACUUM', 'autovacuum']) },
      { url: 'http://docs.test/journal', title: 'Journal modes', text: body(['journal', 'wal', 'vacuum']) },
      { url: 'http://docs.test/readfile', title: 'fs', text: body(['readFile', 'journal', 'readFileSync']) },
      { url: 'http://docs.test/quotes', title: 'Quotes', text: body(['“vacuum”', 'don’t', 'Café', 'journal']) },
      { url: 'http://docs.test/long', title: 'Long', text: long(['journal', 'vacuum'], SUMMARY_TEXT_CHARS / 4) + ' journal' },
    ];
    const dir = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 10)), pages);
    writeWebDb(crawl, []);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
    const seg = Segment.open(dir, { readonly: true });
    const analyzer = Analyzer.fromConf(crawl.conf);
    for (const p of pages) {
      const src = seg.getSummarySource(p.url)!;
      assert.equal(src.offsets, textOffsets(analyzer, p.text), p.url);
      assert.ok(readOffsets(src.offsets!)!.starts instanceof Uint16Array, `${p.url}: the 16-bit columns are stored`);
      assert.is(src.text, p.text.slice(0, SUMMARY_TEXT_CHARS));
      assert.is(src.length, p.text.length);
    }
    seg.close();
    const reader = await openIndex(path.join(dir, 'index'));
    const segments = new FetchedSegments(crawl.segments);
    const snap = { crawlDir: crawl.dir, reader, analyzer: reader.analyzer, segments, settings: searchSettings(crawl.conf), loadedAt: 0, version: 'test' };
    try {
      for (const query of ['vacuum', 'journal vacuum', 'readFile', 'zebra OR wal']) {
        const r = search(snap, { query });
        assert.ok(r.hits.length > 0, query);
        for (const h of r.hits) {
          const by = (words: SummaryWords) => hitDetails(snap, h, r, { words });
          assert.equal(by('stored'), by('whole'), `${query}: ${h.doc.url}`);
          assert.match(summaryToText(by('stored').summary), /\w/);
        }
      }
    } finally {
      segments.close();
      reader.close();
    }
  } finally {
    crawl.cleanup();
  }
});

test.run();
