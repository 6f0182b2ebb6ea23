/**
 * Pruned ranking (searcher/prune) against scoring every match: over a
 * corpus of 900 pages on five sites and many kinds of query (one word, many
 * words with partial matches, phrases, OR, exclusions, site: and title:,
 * misspellings), at several pages and hits per site, the same hits, scores,
 * totals, grouping and facets. Every match's bound is at least its score,
 * so a bound made too low fails here even where the pages happen to agree.
 * Then every query of the ranking benches over the judged crawl, and each
 * block's bound against its postings' unit scores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { countableTerms } from '../../searcher/counted.js';
import { rankPruned, unitScores } from '../../searcher/prune.js';
import { DocTerms } from '../../searcher/rank/docterms.js';
import { makeScorer } from '../../searcher/rank/score.js';
import { blockBuffers } from '../../shared/index/postings-codec.js';
import type { StoredDoc } from '../../shared/index/types.js';
import { pageOfRanked, search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { rng } from '../fixtures/rng.js';
import { devwebDir, devwebQueries } from '../bench/ranking/devweb.js';
import { REALWEB_SETS, realwebDir, realwebQueries } from '../bench/ranking/realweb.js';
import { JUDGED_QUERIES } from '../judged/queries.js';
import { shown } from './result-shown.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';
import { buildJudgedCrawl } from './judged-crawl.js';

const WORDS = ('vacuum journal index table column trigger commit branch rebase merge stash remote socket stream buffer ' +
  'event loop worker thread module package install upgrade kernel network firewall mount volume backup restore query ' +
  'cache page memory disk file directory process signal timer crypto hash password user group permission shell script').split(' ');

function corpus(): FixturePage[] {
  const rnd = rng(20261130);
  // Zipf-like: early words are common, late ones rare.
  const word = () => WORDS[Math.floor(WORDS.length * rnd() ** 2.2)]!;
  const sites = ['a', 'b', 'c', 'd', 'e'].map((s) => `http://${s}.prune.test`);
  return Array.from({ length: 900 }, (_, i) => {
    const length = rnd() < 0.15 ? 800 + Math.floor(rnd() * 1500) : 20 + Math.floor(rnd() * 200);
    const text = Array.from({ length }, (_, k) => (k % 9 === 8 ? `w${Math.floor(rnd() * 400)}` : word())).join(' ');
    return {
      url: `${sites[i % (i % 7 === 0 ? 2 : 5)]}/p${i}.html`,
      title: Array.from({ length: 1 + Math.floor(rnd() * 4) }, word).join(' '),
      text,
      anchors: rnd() < 0.3 ? [Array.from({ length: 2 }, word).join(' ')] : [],
      boost: rnd() < 0.1 ? 5 * rnd() : rnd(),
    };
  });
}

const QUERIES = [
  'vacuum', 'table', 'hash', 'shell', 'w17', 'vacuum journal', 'journal vacuum index', 'event loop', 'commit branch rebase merge',
  'kernel network firewall mount volume', 'how do I restore a backup of my disk', 'password user group permission shell script',
  '"event loop"', '"vacuum journal"', 'vacuum OR kernel', 'stream OR buffer socket', 'index -table', 'vacuum -journal -index',
  'site:a.prune.test vacuum', 'site:b.prune.test journal index', 'title:vacuum', 'title:journal table', 'vacumm', 'jurnal index',
  'zzzz', 'w3 w5 w7', 'type:html vacuum',
];
const PAGES = [{}, { hitsPerSite: 0 }, { hitsPerSite: 1 }, { start: 10 }, { start: 95, hitsPerPage: 20 }, { hitsPerPage: 50, hitsPerSite: 3 }, { start: 40, hitsPerSite: 0 }];

let dir = '';
let snaps: CrawlSnapshots;

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, corpus());
  snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
});
test.after(() => {
  snaps?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('pruned ranking shows what scoring every match shows', () => {
  const snap = snaps.current;
  let many = 0;
  for (const query of QUERIES)
    for (const page of PAGES) {
      const req = { query, ...page };
      const exhaustive = search(snap, req, { exhaustive: true });
      assert.equal(shown(search(snap, req)), shown(exhaustive), JSON.stringify(req));
      if (exhaustive.total > 200) many++;
    }
  assert.ok(many > 20, `only ${many} result pages with more than 200 matches: too few to prune`);
});

test('with partial matches joining only below 50 full ones, the pruned ranking shows what scoring every match shows', async () => {
  const conf = Conf.load();
  conf.set('searcher.partial.below', '50');
  const strict = await CrawlSnapshots.open(dir, searchSettings(conf));
  try {
    let apart = 0;
    for (const query of QUERIES)
      for (const page of PAGES) {
        const req = { query, ...page };
        const exhaustive = search(strict.current, req, { exhaustive: true });
        assert.equal(shown(search(strict.current, req)), shown(exhaustive), JSON.stringify(req));
        if (exhaustive.partial === 0 && exhaustive.total >= 50 && query.split(' ').length > 1) apart++;
      }
    assert.ok(apart > 20, `only ${apart} result pages of several words without their partial matches`);
  } finally {
    strict.close();
  }
});

test('every document holding a query term has a bound at least its score', () => {
  const snap = snaps.current;
  const { reader } = snap;
  const units = unitScores(reader, snap.settings.rank);
  for (const query of QUERIES) {
    const { query: q } = search(snap, { query });
    const docTerms = new DocTerms(reader, q.terms);
    const scorer = makeScorer(reader, q.terms, snap.settings.rank, docTerms, q.weights, q.alternatives);
    const docs = Uint32Array.from(new Set(q.terms.flatMap((t) => [...reader.postings(reader.termId(t)).docs]))).sort();
    docTerms.locate(docs);
    const unitOf = q.terms.map((t) => units.term(reader.termId(t)));
    docs.forEach((id, i) => {
      const termUnits = q.terms.map((t, k) => {
        const at = docTerms.postingAt(i, docTerms.slot(t));
        return at < 0 ? 0 : unitOf[k]!.at(at);
      });
      assert.ok(termUnits.some((u) => u > 0), `${query}: document ${id} has no unit score`);
      const base = scorer.base(id);
      assert.ok(scorer.bound(id, termUnits) >= base, `${query}: document ${id} scores ${base} over its bound`);
    });
  }
});

test('a candidate pool smaller than the matches holds the best-scoring ones: the first page is the one of a pool of every match', async () => {
  const conf = Conf.load();
  conf.set('searcher.candidates', '40');
  const small = await CrawlSnapshots.open(dir, searchSettings(conf));
  try {
    let filled = 0;
    for (const query of ['vacuum', 'table', 'hash', 'journal', 'index', 'title:vacuum', 'site:a.prune.test table']) {
      const narrow = search(small.current, { query, hitsPerSite: 0 });
      const wide = search(snaps.current, { query, hitsPerSite: 0 });
      if (wide.total > 40) filled++;
      assert.equal(narrow.hits.map((h) => [h.doc.url, h.score]), wide.hits.map((h) => [h.doc.url, h.score]), query);
      // Plain words are counted, not drawn from the pool: the total is every match's.
      if (countableTerms(narrow.query)) assert.equal([narrow.total, narrow.exact], [wide.total, true], query);
      else if (wide.total > 40) assert.ok(!narrow.exact && narrow.total <= 40, `${query}: ${narrow.total} of the pool's matches, exact ${narrow.exact}`);
    }
    assert.ok(filled >= 4, `only ${filled} queries with more matches than the pool`);
  } finally {
    small.close();
  }
});

/**
 * Every query of the ranking benches: the judged set's, and devweb's and realweb's (keyword and question files),
 * copied into test/fixtures/bench-queries.txt so that a clone without those sets beside it runs them too.
 */
function benchQueries(): string[] {
  const copied = fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'bench-queries.txt'), 'utf8').split('\n').filter(Boolean);
  return [...JUDGED_QUERIES.map((q) => q.q), ...copied];
}

/** The copy holds what the sets ask today, where they are beside the checkout. */
test('the copied bench queries are the devweb and realweb query files\' queries', () => {
  const dev = devwebDir();
  const real = realwebDir();
  if (!dev || !real) return;
  const live = [...devwebQueries(dev).map((q) => q.q), ...REALWEB_SETS.flatMap((set) => realwebQueries(real, set.file).map((q) => q.q))];
  assert.equal(benchQueries().slice(JUDGED_QUERIES.length), live);
});

test('every query of the ranking benches over the judged crawl: the pruned ranking shows what scoring every match shows, at the default pool and a small one', async () => {
  const judged = tempCrawlDir();
  await buildJudgedCrawl(judged);
  const small = Conf.load();
  small.set('searcher.candidates', '20');
  const opened = [await CrawlSnapshots.open(judged, searchSettings(Conf.load())), await CrawlSnapshots.open(judged, searchSettings(small))];
  try {
    const queries = benchQueries();
    assert.ok(queries.length > 150, `${queries.length} queries`);
    let filled = 0;
    for (const s of opened)
      for (const query of queries)
        for (const page of [{}, { hitsPerSite: 0 }, { start: 10 }]) {
          const req = { query, ...page };
          const exhaustive = search(s.current, req, { exhaustive: true });
          const pruned = search(s.current, req);
          // Only a query other than plain words takes a pool that may fill up: it says so, and its total is the pool's.
          if (!pruned.exact) {
            assert.is(countableTerms(pruned.query), undefined, JSON.stringify(req));
            continue;
          }
          if (exhaustive.total > s.current.settings.candidates) filled++;
          assert.equal(shown(pruned), shown(exhaustive), JSON.stringify(req));
        }
    assert.ok(filled > 100, `only ${filled} result pages with more matches than the pool`);
  } finally {
    for (const s of opened) s.close();
    fs.rmSync(judged, { recursive: true, force: true });
  }
});

test('a block\'s bound, before any of its postings is scored, is at least each one\'s unit score', () => {
  const { reader, settings } = snaps.current;
  // Fresh parameters: no block is scored yet, so each bound comes from the block's largest tfs and shortest lengths.
  const fresh = unitScores(reader, { ...settings.rank });
  const scored = unitScores(reader, { ...settings.rank });
  let blocks = 0;
  for (let t = 0; t < reader.meta.termCount; t++)
    for (let b = 0; b < reader.postingBlocks(t).blocks; b++, blocks++) {
      const bound = fresh.term(t).bound(b);
      for (const u of scored.term(t).block(b)) assert.ok(u <= bound, `${reader.terms()[t]} block ${b}: ${u} over ${bound}`);
    }
  assert.ok(blocks > 1000, `${blocks} blocks`);
});

test('a block\'s unit scores worked out from the block its caller decoded (its frequencies) are those worked out from their own decoding', () => {
  const { reader, settings } = snaps.current;
  const own = unitScores(reader, { ...settings.rank });
  const given = unitScores(reader, { ...settings.rank });
  const buf = blockBuffers();
  let blocks = 0;
  for (let t = 0; t < reader.meta.termCount; t += 3) {
    const tb = reader.postingBlocks(t);
    for (let b = 0; b < tb.blocks; b++, blocks++) {
      const term = given.term(t);
      assert.not.ok(term.known(b));
      tb.decode(b, buf);
      assert.equal([...term.block(b, buf)], [...own.term(t).block(b)], `${reader.terms()[t]} block ${b}`);
      assert.ok(term.known(b));
    }
  }
  assert.ok(blocks > 300, `${blocks} blocks`);
});

test('rankPruned: the shown part of the ranking as a full sort gives it, with fewer scored', () => {
  const rnd = rng(7);
  let scored = 0;
  let all = 0;
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(rnd() * 400);
    const sites = 1 + Math.floor(rnd() * 6);
    const truth = Array.from({ length: n }, () => Math.floor(rnd() * 50) / 4);
    const siteOf = Array.from({ length: n }, () => Math.floor(rnd() ** 2 * sites));
    // Site indexes as rankPool gives them: 0 up to the number of sites present.
    const present = [...new Set(siteOf)];
    const pool = {
      bound: Float64Array.from(truth, (score) => score + rnd() * 2),
      id: Uint32Array.from(truth, (_, i) => i),
      site: Int32Array.from(siteOf, (s) => present.indexOf(s)),
      sites: present.length,
    };
    const holdsAll = Uint8Array.from(truth, () => (rnd() < 0.3 ? 1 : 0));
    const hitOf = (i: number, score: number) => ({ id: i, score, site: `s${pool.site[i]}`, full: holdsAll[i] === 1, doc: { site: `s${pool.site[i]}` } });
    const paging = { start: Math.floor(rnd() * 3) * 10, hitsPerPage: 10, hitsPerSite: Math.floor(rnd() * 3) };
    const needs = { top: Math.min(100, Math.max(20, paging.start + paging.hitsPerPage)), hitsPerSite: paging.hitsPerSite, keepTop: paging.hitsPerPage };
    const pruned = rankPruned(pool, (i) => truth[i]!, needs);
    const ranked = pruned.order.map((i) => hitOf(i, pruned.scores[i]!));
    const full = truth.map((score, i) => hitOf(i, score)).sort((a, b) => b.score - a.score || a.id - b.id);
    const view = (list: typeof full) => {
      const p = pageOfRanked(list as never, paging, (h) => (h as unknown as { doc: StoredDoc }).doc);
      return { ...p, hits: p.hits.map((h: { id: number; score: number; grouped: boolean; moreFromSite: boolean }) => [h.id, h.score, h.grouped, h.moreFromSite]), facets: undefined };
    };
    assert.equal(view(ranked), view(full), `round ${round}`);
    assert.equal(ranked.slice(0, needs.top).map((h) => h.id), full.slice(0, needs.top).map((h) => h.id), `round ${round}: the top`);
    scored += pruned.scored;
    all += n;
  }
  assert.ok(scored < 0.8 * all, `${scored} of ${all} scored`);
});

test.run();
