/**
 * The per-query scorer reads a document's statistics through forward-index
 * entries looked up once per term (DocTerms); it must give, to the last
 * bit, what BM25F gives over the reader's by-name statistics, and the
 * proximity scan bounded at maxPositions must give what the full one gives.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import { FIELDS } from '../../shared/index/types.js';
import { bm25f, idf, type DocStats } from '../../searcher/rank/bm25f.js';
import { DocTerms } from '../../searcher/rank/docterms.js';
import { withParams } from '../../searcher/rank/params.js';
import { proximity } from '../../searcher/rank/proximity.js';
import { linkPrior, makeScorer, readerStats } from '../../searcher/rank/score.js';
import { searchSettings } from '../../searcher/settings.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { PAGES } from './pages.js';

let dir = '';
let reader: LoadedIndex;
const params = searchSettings(Conf.load()).rank;

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, PAGES);
  reader = await openIndex(`${dir}/index`);
});
test.after(() => {
  reader?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const QUERIES = [['crawler'], ['web', 'crawler'], ['crawler', 'web', 'fetcher', 'absentword'], ['fetcher', 'crawler', 'page']];
const byName = (id: number): DocStats => ({ termFreq: (f, t) => reader.termFreq(id, f, t), fieldLength: (f) => reader.fieldLength(id, f) });

test('DocTerms: a document selected after locating some finds the entries and frequencies the reader finds, located or not', () => {
  const terms = ['crawler', 'web', 'fetcher', 'absentword'].map((w) => reader.analyzer.term(w) ?? w);
  const ids = Array.from({ length: reader.meta.docCount }, (_, i) => i);
  const docTerms = new DocTerms(reader, terms);
  docTerms.locate(Uint32Array.from(ids.filter((id) => id % 3 !== 1)));
  let held = 0;
  // Backwards, so neither a located document nor another follows the one at hand.
  for (const id of ids.reverse()) {
    docTerms.select(id);
    terms.forEach((t, s) => {
      assert.is(docTerms.entry(s), reader.entry(id, reader.termId(t)), `document ${id}, ${t}`);
      FIELDS.forEach((f, k) => assert.is(docTerms.freq(s, k), reader.termFreq(id, f, t), `document ${id}, ${t} in ${f}`));
      if (docTerms.has(s)) held++;
    });
  }
  assert.ok(held > 10, 'documents holding the terms were compared');
});

test('base score: BM25F over the entries equals BM25F by name, plus the link prior', () => {
  const stats = readerStats(reader);
  let checked = 0;
  for (const q of QUERIES) {
    const terms = q.map((w) => reader.analyzer.term(w) ?? w);
    const scorer = makeScorer(reader, terms, params);
    const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)));
    for (let id = 0; id < reader.meta.docCount; id++) {
      const expected = bm25f(terms, idfs, byName(id), stats, params.bm25f) + linkPrior(reader.doc(id).boost, params.linkWeight);
      assert.is(scorer.base(id), expected, `${q.join(' ')} on ${reader.doc(id).url}`);
      if (expected > 0) checked++;
    }
  }
  assert.ok(checked > 10, 'documents with a score were compared');
});

test('base score: the link prior of each scorer\'s own weight, scorers of several weights taking turns on one index', () => {
  const terms = ['crawler'].map((w) => reader.analyzer.term(w)!);
  const stats = readerStats(reader);
  const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)));
  const linked = Array.from({ length: reader.meta.docCount }, (_, id) => id).filter((id) => reader.doc(id).boost > 0);
  assert.ok(linked.length > 0, 'some document has a link score');
  for (const linkWeight of [params.linkWeight, 3 * params.linkWeight + 1, params.linkWeight, 0]) {
    const scorer = makeScorer(reader, terms, { ...params, linkWeight });
    for (const id of linked) assert.is(scorer.base(id), bm25f(terms, idfs, byName(id), stats, params.bm25f) + linkPrior(reader.doc(id).boost, linkWeight), `weight ${linkWeight}, document ${id}`);
  }
});

test('proximity: the bounded scan equals the full one, and explain adds up', () => {
  const terms = ['web', 'crawler'].map((w) => reader.analyzer.term(w)!);
  for (const maxPositions of [1, 256]) {
    const p = { ...withParams(params, {}), proximity: { ...params.proximity, maxPositions } };
    const scorer = makeScorer(reader, terms, p);
    const stats = readerStats(reader);
    const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)));
    let near = 0;
    for (let id = 0; id < reader.meta.docCount; id++) {
      const full = proximity(terms, terms.map((t) => reader.positions(id, t)), idfs, p.proximity).bonus;
      const e = scorer.explain(id);
      // The anchor votes (links naming the page with the query's words) come with the proximity bonus.
      assert.is(scorer.proximity(id), full + e.naming);
      if (full > 0) near++;
      assert.is(e.score, e.bm25f + e.sectionLift + e.proximity + e.naming + e.linkPrior);
      assert.ok(Math.abs(e.bm25f + e.linkPrior - scorer.base(id)) < 1e-12);
    }
    assert.ok(near > 0, 'some document has the words near each other');
  }
});

test.run();
