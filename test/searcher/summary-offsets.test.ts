/** Summaries from the index's positions and the word offsets stored at index time (or read from the text from its checkpoints) equal the summaries from the whole page. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { NumberedTokens } from '../../shared/analysis/term-numbers.js';
import { openIndex } from '../../shared/index/reader.js';
import { readOffsets, encodeSummaryMeta, readSummaryMeta, sectionOf, SUMMARY_TEXT_CHARS, summaryMeta, UNCLASSED, baseClass } from '../../segments/offsets.js';
import { readCheckpoints, textCheckpoints } from '../../segments/checkpoints.js';
import { encodeOffsets, textOffsets, wordClass } from '../fixtures/offsets-v3.js';
import { inflectionBase } from '../../segments/inflection.js';
import { LATIN1, LISTED, StoredText, storedText, UTF16, WholeText } from '../../segments/summary-text.js';
import { Segment } from '../../segments/segment.js';
import { SUMMARIES_FILE } from '../../segments/summaries.js';
import { hitDetails, type SummaryWords } from '../../searcher/details.js';
import { typedWords } from '../../searcher/highlight.js';
import { search } from '../../searcher/search.js';
import { FetchedSegments } from '../../searcher/fetched-segments.js';
import { searchSettings } from '../../searcher/settings.js';
import { summarize, summarizeRanges, summaryToText, type SummaryOptions } from '../../searcher/summary.js';
import { classedHits, markedHits, offsetWords, type TextHits } from '../../searcher/summary-offsets.js';
import { makeCrawl, summarySource, writeSegment, writeWebDb } from '../fixtures/crawlstore.js';
import { segmentFile } from '../../shared/crawl-dir.js';
import { filler, long, SUMMARY_CASES, type Page } from './summary-pages.js';

const stem = new Analyzer({ stemEnglish: true });

/** A record as hazelnut wrote it before inflection classes were stored (version 2), read. */
function withoutClasses(record: Buffer) {
  const { count } = readOffsets(record)!;
  const v2 = Buffer.from(record.subarray(0, 8 + 4 * count));
  v2.writeUInt32LE(2, 0);
  const offsets = readOffsets(v2)!;
  assert.is(offsets.classes, undefined);
  return offsets;
}
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
      const accept = typedWords(analyzer, query);
      const whole = summarize(p.text, analyzer.tokens(p.text), new Set(terms), opts, { furniture: p.furniture ?? [], accept, sections: p.sections ?? [] });
      const hits = hitsOf(analyzer, p.text, terms);
      // The stored form, and the form older hazelnut stored (no inflection classes: every hit's word judged).
      const record = textOffsets(analyzer, p.text);
      for (const offsets of [readOffsets(record)!, withoutClasses(record)]) {
        const { bytes, form } = storedText(p.text);
        const marked = markedHits(analyzer, new StoredText(bytes, form), offsets, hits, accept)!;
        const parts = offsetWords(offsets, hits, opts, p.furniture ?? [], offsets.count, marked);
        const sections = [...(p.sections ?? []), ...parts.cuts].sort((a, b) => a - b);
        assert.equal(summarizeRanges(p.text, parts.words, opts, { furniture: p.furniture ?? [], sections, more: parts.more }), whole, offsets.classes ? 'classes' : 'no classes');
      }
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

/** Tokens as the analyzer hands them to encodeOffsets: each term by number, each with its word's class. */
function valued(text: string, tokens: readonly { term: string; start: number; end: number }[]): NumberedTokens {
  const out = new NumberedTokens();
  const numbers = new Map<string, number>();
  for (const t of tokens) {
    if (out.count === out.terms.length) out.grow();
    if (!numbers.has(t.term)) numbers.set(t.term, numbers.size);
    out.terms[out.count] = numbers.get(t.term)!;
    out.starts[out.count] = t.start;
    out.ends[out.count] = t.end;
    out.values[out.count++] = wordClass(text.slice(t.start, t.end));
  }
  return out;
}

test('offsets: round trip, columns read in place; version 1 still read; another version or a damaged record is refused', () => {
  const spans = [
    { term: 'abc', start: 0, end: 3 },
    { term: 'read', start: 4, end: 12 },
    { term: 'file', start: 4, end: 8 },
    { term: 'x', start: 300, end: 301 },
    { term: 'vacuum', start: 59_990, end: SUMMARY_TEXT_CHARS },
  ];
  const text = 'x'.repeat(SUMMARY_TEXT_CHARS);
  const data = encodeOffsets(valued(text, spans));
  assert.is(data.length, 8 + 5 * spans.length, 'a version, a count, two 16-bit columns and a column of classes');
  const d = readOffsets(data)!;
  assert.ok(d.starts instanceof Uint16Array && d.starts.buffer === data.buffer, 'read where it is stored, not decoded');
  const spansOf = (o: ReturnType<typeof readOffsets>) => [...o!.starts].map((s, i) => ({ start: s, end: o!.ends[i] }));
  const bare = spans.map(({ start, end }) => ({ start, end }));
  assert.equal(spansOf(d), bare);
  assert.equal([...d.classes!], ['xxx', 'xxxxxxxx', 'xxxx', 'x', 'xxxxxxxxxx'].map((w) => baseClass(inflectionBase(w))));
  // A record at an odd offset (a Buffer in a pool) is copied, not misread.
  assert.equal(spansOf(readOffsets(Buffer.concat([Buffer.from([0]), data]).subarray(1))), bare);
  assert.equal(spansOf(withoutClasses(data)), bare);
  assert.equal(spansOf(readOffsets(version1(spans))), bare);
  assert.is(readOffsets(data.subarray(0, data.length - 1)), undefined);
  assert.is(readOffsets(Buffer.concat([Buffer.from([4]), data.subarray(1)])), undefined);
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

test('offsets hold the words that lie whole in the covered part: one its end cuts is left out, as the whole text has it; one that ends there is kept', () => {
  const lead = 'ab '.repeat((SUMMARY_TEXT_CHARS - 6) / 3);
  // The part ends after the apostrophe of user’s: a scan of the part alone would see the word `user`.
  const cut = readOffsets(textOffsets(plain, `${lead} user’s language`))!;
  assert.is(cut.count, lead.length / 3, 'user’s is left out');
  assert.is(cut.ends[cut.count - 1], lead.length - 1);
  const whole = readOffsets(textOffsets(plain, `${lead}vacuum more`))!;
  assert.is(whole.count, lead.length / 3 + 1, 'vacuum, ending where the part ends, is kept');
  assert.is(whole.ends[whole.count - 1], SUMMARY_TEXT_CHARS);
});

test('the stored meta: section offsets and furniture read at once, a heading parsed when named; the JSON older hazelnut stored still read', () => {
  const meta = {
    sections: [
      { heading: 'Intro', level: 1, offset: 0 },
      { heading: 'Line\nbreak "quoted"', level: 2, offset: 40, id: 'lb' },
      { heading: 'Last', level: 2, offset: 50 },
    ],
    furniture: [[0, 10]] as [number, number][],
  };
  for (const stored of [encodeSummaryMeta(meta), JSON.stringify(meta)]) {
    const m = readSummaryMeta(stored);
    assert.equal(m.sections, [0, 40, 50]);
    assert.equal(m.furniture, [[0, 10]]);
    assert.equal(sectionOf(m, 2), { heading: 'Last' });
    assert.equal(sectionOf(m, 0), { heading: 'Intro' });
    assert.equal(sectionOf(m, 1), { heading: 'Line\nbreak "quoted"', id: 'lb' });
  }
  const none = readSummaryMeta(encodeSummaryMeta({}));
  assert.equal([none.sections, none.furniture, none.headings.length], [[], [], 0]);
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
  const accept = typedWords(plain, 'vacuum');
  assert.ok(markedHits(plain, new WholeText(text), offsets, hits, accept));
  assert.not.ok(markedHits(plain, new WholeText(`w1 ${text}`), offsets, hits, accept), 'the text changed before the hit');
  assert.not.ok(markedHits(plain, new WholeText(text.slice(0, 20)), offsets, hits, accept), 'the text is shorter than the offsets');
});

test('the stored inflection classes decide which hits are marked: one word of each class is read', () => {
  const text = Array.from({ length: 40 }, (_, i) => `${['expenses', 'expensive', 'Expense', 'expensed'][i % 4]} ${filler(6, i)}.`).join(' ');
  const record = textOffsets(stem, text);
  const hits = hitsOf(stem, text, ['expens']);
  assert.is(hits.at.length, 40);
  const accept = typedWords(stem, 'expense');
  const read: number[] = [];
  const judge = (h: number) => (read.push(h), accept(text.slice(readOffsets(record)!.starts[hits.at[h]!], readOffsets(record)!.ends[hits.at[h]!]), 'expens'));
  const marked = classedHits(readOffsets(record)!, hits, accept, judge)!;
  assert.is(marked.at.length, 30, 'all but "expensive"');
  // "expensive" has another class than the typed word's and is never read; the other three forms share one.
  assert.equal(read, [0]);
  // Without classes (a record of older hazelnut), every candidate hit's word is read and gives the same marks.
  read.length = 0;
  assert.equal(classedHits(withoutClasses(record), hits, accept, judge), marked);
  assert.is(read.length, 40);
});

/** Two words of different inflection bases whose bases share a class. */
function sameClassPair(): [string, string] {
  const byClass = new Map<number, string>();
  for (let i = 0; i < 1000; i++) {
    const w = `q${i}`;
    const other = byClass.get(baseClass(inflectionBase(w)));
    if (other) return [other, w];
    byClass.set(baseClass(inflectionBase(w)), w);
  }
  throw new Error('no two words of one class among 1,000');
}

test('a class two bases of one term share in a page tells neither: their words are read', () => {
  const pair = sameClassPair();
  const words = [pair[0], 'q5000', pair[1], pair[0]];
  const text = words.join(' ');
  let at = 0;
  const tokens = words.map((w) => ({ term: 'same', start: (at += w.length + 1) - w.length - 1, end: at - 1 }));
  const classes = [...readOffsets(encodeOffsets(valued(text, tokens)))!.classes!];
  assert.equal(classes, [UNCLASSED, baseClass(inflectionBase('q5000')), UNCLASSED, UNCLASSED]);
  // Under different terms the same class tells each apart.
  const apart = [...readOffsets(encodeOffsets(valued(text, tokens.map((t, i) => ({ ...t, term: `t${i}` })))))!.classes!];
  assert.ok(apart.every((c) => c !== UNCLASSED));
});

test('only the words of a term whose bases share a class lose it; spans past 255 and 65,279 keep both bytes', () => {
  const [a, b] = sameClassPair();
  const text = `${a} ${b} ${'x'.repeat(300)} ${a} ${'y'.repeat(65_000)} ${b}`;
  const spans = [a, b, a, b].map((w, i) => {
    const start = i < 2 ? (i ? a.length + 1 : 0) : i === 2 ? text.indexOf(` ${a} `, 2) + 1 : text.length - b.length;
    return { start, end: start + w.length };
  });
  // "same" has both bases under one class; "other" has a word of that class and one base.
  const tokens = [
    { term: 'same', ...spans[0]! },
    { term: 'other', ...spans[0]! },
    { term: 'same', ...spans[1]! },
    { term: 'other', ...spans[2]! },
    { term: 'same', ...spans[3]! },
  ];
  const d = readOffsets(encodeOffsets(valued(text, tokens)))!;
  assert.equal([...d.starts], tokens.map((t) => t.start));
  assert.equal([...d.ends], tokens.map((t) => t.end));
  assert.ok(d.ends[4]! > 65_279 && d.starts[3]! > 255);
  const c = baseClass(inflectionBase(a));
  assert.equal([...d.classes!], [UNCLASSED, c, UNCLASSED, c, UNCLASSED]);
});

test('stored text: one byte a code unit, those past U+00FF listed aside, or UTF-16 for text mostly in another script; every span reads as the text; UTF-16 of older hazelnut still read', () => {
  assert.is(storedText('Москва — столица России. '.repeat(400)).form, UTF16, 'a Cyrillic page: UTF-16 is smaller than listing');
  assert.is(storedText('x'.repeat(1000) + '’').form, LISTED, 'one curly quote: listed');
  const texts = [
    '',
    'plain ASCII and Café, naïve ÿ',
    '“vacuum” don’t — Москва, 😀 at the end 😀',
    '€' + 'x'.repeat(300) + '’' + 'y'.repeat(70_000) + '中',
    '’’’ three at the start',
    'Москва — столица России. '.repeat(400),
  ];
  for (const text of texts) {
    const { bytes, form } = storedText(text);
    const wider = text.replace(/[\x00-\xff]/g, '').length;
    const listed = text.length + 6 * wider + 4;
    const expected = wider === 0 ? LATIN1 : listed < 2 * text.length ? LISTED : UTF16;
    assert.is(form, expected, text.slice(0, 20));
    assert.is(bytes.length, [text.length, 2 * text.length, listed][expected], 'a byte a code unit and six a listed one, or two a code unit where that is smaller');
    const older = Buffer.from(text, 'utf16le');
    for (const stored of [new StoredText(bytes, form), new StoredText(older, UTF16)]) {
      assert.is(stored.length, text.length);
      assert.is(stored.whole(), text);
      const cuts = [0, 1, 2, 3, 5, 8, 13, 20, 30, 36, 37, 38, 301, 302, 303, text.length - 2, text.length - 1, text.length].filter((c) => c >= 0 && c <= text.length);
      for (const a of cuts) for (const b of cuts) assert.is(stored.slice(a, b), text.slice(a, Math.max(a, b)), `[${a}, ${b})`);
      assert.is(stored.slice(2, text.length + 10), text.slice(2));
    }
  }
});

test('the summary and summary_text tables of older hazelnut still read where the index has no summaries file; indexing again writes the file and empties them', async () => {
  const crawl = makeCrawl();
  try {
    const pages = [
      { url: 'http://docs.test/quotes', title: 'Quotes', text: long(['“vacuum”', 'don’t', 'Café', 'journal'], 60) },
      { url: 'http://docs.test/plain', title: 'Plain', text: long(['vacuum', 'journal'], 60) },
    ];
    const dir = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 10)), pages);
    writeWebDb(crawl, []);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
    const read = () => {
      const seg = Segment.open(dir, { readonly: true });
      try {
        return pages.map((p) => summarySource(seg, p.url)!);
      } finally {
        seg.close();
      }
    };
    const now = read();
    assert.equal(now.map((r) => r.text), pages.map((p) => p.text));
    const analyzer = Analyzer.fromConf(crawl.conf);
    // What the tables held: the text and every word's offsets; they read as the summaries file, with the offsets.
    const asHeld = read().map((r, i) => ({ ...r, checkpoints: undefined, offsets: textOffsets(analyzer, pages[i]!.text) }));
    const file = path.join(dir, 'index', SUMMARIES_FILE);
    assert.ok(fs.existsSync(file));
    // The segment as the hazelnut before left it: no summaries file, the rows in the summary table.
    fs.rmSync(file);
    const db = new Database(segmentFile(dir));
    const put = db.prepare('INSERT INTO summary (url, text, form, length, offsets, meta) VALUES (?, ?, ?, ?, ?, ?)');
    now.forEach((r, i) => {
      const { bytes, form } = storedText(r.text);
      put.run(pages[i]!.url, bytes, form, r.length, asHeld[i]!.offsets, encodeSummaryMeta({}));
    });
    assert.equal(read(), asHeld, 'the summary table reads as the summaries file');
    // As older hazelnut left it: the rows in summary_text, the text UTF-16LE where it held a character past U+00FF.
    db.exec(`CREATE TABLE summary_text (url TEXT PRIMARY KEY, text BLOB NOT NULL, wide INTEGER NOT NULL, length INTEGER NOT NULL, offsets BLOB NOT NULL, meta TEXT NOT NULL);
      INSERT INTO summary_text SELECT url, text, form, length, offsets, meta FROM summary; DROP TABLE summary`);
    for (const p of pages) {
      const wide = /[^\x00-\xff]/.test(p.text);
      db.prepare('UPDATE summary_text SET text = ?, wide = ? WHERE url = ?').run(Buffer.from(p.text, wide ? 'utf16le' : 'latin1'), wide ? 1 : 0, p.url);
    }
    db.close();
    assert.equal(read(), asHeld, 'older rows read as the current ones');
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
    assert.ok(fs.existsSync(file));
    const after = new Database(segmentFile(dir), { readonly: true });
    const count = (table: string) => (after.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.equal([count('summary_text'), count('summary')], [0, 0]);
    after.close();
    assert.equal(read(), now);
  } finally {
    crawl.cleanup();
  }
});

test('index stores checkpoints beside the parse; the searcher summarizes from them as from the whole text', async () => {
  const intro = 'Journal modes and vacuum.\n';
  const straddling = `${(intro + 'ab '.repeat(SUMMARY_TEXT_CHARS / 4)).slice(0, SUMMARY_TEXT_CHARS - 5).padEnd(SUMMARY_TEXT_CHARS - 5, ' ')}user’s journal vacuum ${'ab '.repeat(2000)}`;
  assert.is(straddling.slice(SUMMARY_TEXT_CHARS - 5, SUMMARY_TEXT_CHARS), 'user’');
  // Indexed with a cap below what the checkpoints cover, so the long page's hit past it is known to neither way.
  const crawl = makeCrawl({ 'indexer.max.tokens': '10000' });
  try {
    const body = (w: string[]) => long(w, 120);
    const pages = [
      { url: 'http://docs.test/vacuum', title: 'Vacuum', text: body(['vacuum', 'journal', 'VACUUM', 'autovacuum']) },
      { url: 'http://docs.test/journal', title: 'Journal modes', text: body(['journal', 'wal', 'vacuum']) },
      { url: 'http://docs.test/readfile', title: 'fs', text: body(['readFile', 'journal', 'readFileSync']) },
      { url: 'http://docs.test/quotes', title: 'Quotes', text: body(['“vacuum”', 'don’t', 'Café', 'journal']) },
      { url: 'http://docs.test/long', title: 'Long', text: long(['journal', 'vacuum'], SUMMARY_TEXT_CHARS / 4) + ' journal' },
      // Analyzed whole for its sections, in the same scan as its checkpoints; the end of the covered part cuts user’s.
      { url: 'http://docs.test/long-sections', title: 'Sections', text: straddling, sections: [{ heading: 'Journal', level: 2, offset: 0 }, { heading: 'More', level: 2, offset: intro.length }] },
    ];
    const dir = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 10)), pages);
    writeWebDb(crawl, []);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
    const seg = Segment.open(dir, { readonly: true });
    const analyzer = Analyzer.fromConf(crawl.conf);
    for (const p of pages) {
      const src = summarySource(seg, p.url)!;
      const { count, tokens, chars, exceptions, exceptionTokens } = readCheckpoints(textCheckpoints(analyzer, p.text))!;
      assert.equal(src.checkpoints, { count, tokens: [...tokens], chars: [...chars], exceptions: [...exceptions], exceptionTokens: [...exceptionTokens] }, p.url);
      assert.is(count, readOffsets(textOffsets(analyzer, p.text))!.count, `${p.url}: the tokens the offsets covered`);
      assert.is(src.offsets, undefined);
      assert.is(src.text, p.text.slice(0, SUMMARY_TEXT_CHARS));
      assert.is(src.length, p.text.length);
    }
    seg.close();
    // Queries go to the merged index.
    await merge(crawl.conf, { index: crawl.index, segments: [dir] });
    const reader = await openIndex(crawl.index);
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
