/**
 * Section-level evidence: a page of two sections or more scores as its best
 * section when that is higher (BM25F of the section's body against the
 * average section, the page's title, anchors and URL, no headings), and the
 * difference, the section lift, is what the scorer adds and /explain shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { bm25f, idf, type DocStats } from '../../searcher/rank/bm25f.js';
import { makeScorer, readerStats } from '../../searcher/rank/score.js';
import { scoredLength, SHORTEST_SECTION } from '../../searcher/rank/sections.js';
import { explainPage } from '../../searcher/http/docpages.js';
import { PROXIMITY_DEPTH, SECTION_DEPTH } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-sections-'));
let reader: LoadedIndex;
const params = searchSettings(Conf.load()).rank;

const filler = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `w${(seed * 31 + i * 7) % 97}`).join(' ');

/** A page from its sections' texts, each section starting at its own line. */
function page(url: string, title: string, parts: string[]): IndexInputDoc {
  const sections: number[] = [];
  let text = '';
  for (const p of parts) {
    if (text) text += '\n';
    sections.push(text.length);
    text += p;
  }
  const host = new URL(url).host;
  return {
    url, title, content: text, host, site: host, domain: host, type: 'text/html', lang: 'en', date: '20240101', tstamp: 0,
    digest: url, boost: 0, segment: '20240101000000', contentLength: text.length, anchors: [], headings: [], sections: parts.length > 1 ? sections : [],
  };
}

// A reference page whose one section is about the query, among many about other things; a page that mentions
// the query's words here and there; and pages that give the words their document frequencies.
const DOCS = [
  page('http://s.test/reference', 'Process reference', Array.from({ length: 10 }, (_, k) => (k === 6 ? `exit code ${filler(k, 20)} signal exit signal code` : filler(k, 60)))),
  page('http://s.test/notes', 'Notes', [`${filler(50, 30)} exit ${filler(51, 30)} signal ${filler(52, 30)} code`]),
  page('http://s.test/other', 'Other', [filler(60, 80), `exit ${filler(61, 40)}`]),
  page('http://s.test/plain', 'Plain', [filler(70, 90)]),
];

test.before(async () => {
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 400 });
  for (const d of DOCS) w.add(d);
  await w.write(tmp);
  reader = await openIndex(tmp);
});
test.after(() => {
  reader?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const TERMS = ['exit', 'signal', 'code'];
const terms = TERMS;

/** Term t's count in section k of document id. */
function inSection(id: number, k: number, t: string): number {
  const e = reader.entry(id, reader.termId(t));
  const runs = e < 0 ? [] : reader.entrySections(e);
  for (let i = 0; i < runs.length; i += 2) if (runs[i] === k) return runs[i + 1]!;
  return 0;
}

/** BM25F of section `k` of document `id` as a document of its own: its body (at least half the average section long), no headings, the page's other fields. */
function sectionBm25f(id: number, k: number, terms = TERMS): number {
  const stats = readerStats(reader);
  const lengths = reader.sectionLengths(id);
  const doc: DocStats = {
    termFreq: (f, t) => (f === 'content' ? inSection(id, k, t) : f === 'heading' ? 0 : reader.termFreq(id, f, t)),
    fieldLength: (f) => (f === 'content' ? Math.max(lengths[k]!, reader.meta.avgSectionLength / 2) : f === 'heading' ? 0 : reader.fieldLength(id, f)),
  };
  const sectionStats = { ...stats, avgFieldLength: (f: Parameters<typeof stats.avgFieldLength>[0]) => (f === 'content' ? reader.meta.avgSectionLength : stats.avgFieldLength(f)) };
  return bm25f(terms, terms.map((t) => idf(stats.docCount, stats.docFreq(t))), doc, sectionStats, params.bm25f);
}

test('scored length: a section shorter than half the average section is scored as that long, a longer one as it is', () => {
  assert.is(SHORTEST_SECTION, 0.5);
  const table: [number, number, number][] = [
    // length, average section, scored at
    [10, 180, 90],
    [89, 180, 90],
    [90, 180, 90],
    [91, 180, 91],
    [400, 180, 400],
    [3, 0, 3],
  ];
  for (const [length, avg, want] of table) assert.is(scoredLength(length, avg), want, `${length} terms, average ${avg}`);
});

test('section lift: the best section\'s BM25F less the page\'s, for pages of two sections or more only', () => {
  const scorer = makeScorer(reader, terms, params);
  const stats = readerStats(reader);
  const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)));
  const byName = (id: number): DocStats => ({ termFreq: (f, t) => reader.termFreq(id, f, t), fieldLength: (f) => reader.fieldLength(id, f) });
  const table: [string, number][] = [
    ['http://s.test/reference', 6],
    ['http://s.test/notes', -1],
    ['http://s.test/other', 1],
    ['http://s.test/plain', -1],
  ];
  for (const [url, best] of table) {
    const id = reader.idOf(url)!;
    const pageScore = bm25f(terms, idfs, byName(id), stats, params.bm25f);
    const sections = reader.sectionLengths(id).length;
    const bestScore = Math.max(0, ...Array.from({ length: sections }, (_, k) => sectionBm25f(id, k)));
    const want = best < 0 ? 0 : Math.max(0, bestScore - pageScore);
    if (best >= 0) assert.ok(Math.abs(sectionBm25f(id, best) - bestScore) < 1e-12, `${url}: section ${best} is the best`);
    assert.ok(Math.abs(scorer.sectionLift(id) - want) < 1e-9, `${url}: lift ${scorer.sectionLift(id)}, expected ${want}`);
  }
});

test('section lift: every page and every set of the terms, as scoring each of its sections whole and keeping the best', () => {
  const stats = readerStats(reader);
  const words = [...TERMS, 'reference', 'process'];
  const sets = words.flatMap((a, i) => [[a], ...words.slice(i + 1).map((b) => [a, b])]).concat([words]);
  for (const set of sets) {
    const scorer = makeScorer(reader, set, params);
    const idfs = set.map((t) => idf(stats.docCount, stats.docFreq(t)));
    for (const d of DOCS) {
      const id = reader.idOf(d.url)!;
      const pageScore = bm25f(set, idfs, { termFreq: (f, t) => reader.termFreq(id, f, t), fieldLength: (f) => reader.fieldLength(id, f) }, stats, params.bm25f);
      const sections = reader.sectionLengths(id).length;
      const held = (k: number) => set.some((t) => inSection(id, k, t) > 0);
      const best = sections < 2 ? 0 : Math.max(0, ...Array.from({ length: sections }, (_, k) => (held(k) ? sectionBm25f(id, k, set) - pageScore : 0)));
      assert.ok(Math.abs(scorer.sectionLift(id) - best) < 1e-9, `${d.url} [${set.join(' ')}]: lift ${scorer.sectionLift(id)}, expected ${best}`);
    }
  }
});

test('section lift: the page with the section about the query passes the page that only mentions its words', () => {
  const scorer = makeScorer(reader, terms, params);
  const reference = reader.idOf('http://s.test/reference')!;
  const notes = reader.idOf('http://s.test/notes')!;
  assert.ok(scorer.base(reference) < scorer.base(notes), 'scored whole, the reference page is below');
  assert.ok(scorer.sectionLift(reference) > 0 && scorer.sectionLift(notes) === 0);
  assert.ok(scorer.base(reference) + scorer.sectionLift(reference) > scorer.base(notes) + scorer.sectionLift(notes), 'with its section, above');
});

test('explain: the section and its lift are factors of the score, and add up', () => {
  const scorer = makeScorer(reader, terms, params);
  for (let id = 0; id < reader.meta.docCount; id++) {
    const e = scorer.explain(id);
    assert.ok(Math.abs(e.score - (e.bm25f + e.sectionLift + e.proximity + e.linkPrior)) < 1e-12);
    assert.ok(Math.abs(e.sectionLift - scorer.sectionLift(id)) < 1e-12);
    if (e.sectionLift > 0) {
      assert.ok(e.section !== undefined && Math.abs(e.section.bm25f - e.bm25f - e.sectionLift) < 1e-9, 'the section\'s BM25F is the page\'s plus the lift');
      assert.is(e.section.avgLength, reader.meta.avgSectionLength);
      assert.ok(Math.abs(e.section.terms.reduce((n, t) => n + t.score, 0) - e.section.bm25f) < 1e-9, 'its terms add up to it');
    } else assert.is(e.section, undefined);
  }
});

test('explain page: the section\'s table shows every factor of its terms, the page\'s title as well as the section as the body; the pages a search lifts', () => {
  const query = ['process', ...terms];
  const scorer = makeScorer(reader, query, params);
  const id = reader.idOf('http://s.test/reference')!;
  const e = scorer.explain(id);
  assert.ok(e.section !== undefined && e.sectionLift > 0);
  const html = explainPage(reader.doc(id), query.join(' '), e, 'all');
  assert.ok(html.includes(`a search adds the section lift to its first ${SECTION_DEPTH} pages by BM25F and link prior, and the proximity bonus to its first ${PROXIMITY_DEPTH}.`), 'where a search adds them');
  const section = html.slice(html.indexOf('Section lift:'));
  const { length, scoredLength, avgLength } = e.section!;
  assert.ok(scoredLength > length && html.includes(`(${length} terms, scored as ${scoredLength.toFixed(1)}, half the average section; the average section`), 'a short section says the length it is scored at');
  const cases: [term: string, field: string][] = [
    ['process', 'title: tf 1, length 2 (avg '],
    ['exit', `content: tf 2, length ${scoredLength} (avg ${avgLength.toFixed(1)})`],
    ['signal', `content: tf 2, length ${scoredLength} (avg ${avgLength.toFixed(1)})`],
  ];
  for (const [term, field] of cases) {
    const row = new RegExp(`<tr><th scope="row">${term}</th><td>([\\d.]+)</td><td>([^<]*(?:<br>[^<]*)*)</td>`).exec(section);
    assert.ok(row, `${term} has a row with its idf and fields`);
    assert.is(row![1], e.terms.find((t) => t.term === term)!.idf.toFixed(4), `${term} idf`);
    assert.ok(row![2]!.includes(field), `${term}: ${row![2]}`);
  }
});

test.run();
