/**
 * A query whose words have alternatives of one term each (synonyms, word
 * variants, OR) is counted (searcher/counted) like one of plain words: its
 * total exact however deep the candidate pool, and its page the one scoring
 * every match gives. The count holds a document to a word when it holds any
 * of the word's alternatives (shared/index/match-counts' word groups).
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { rng } from '../fixtures/rng.js';
import { shown } from './result-shown.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';

const WORDS = 'vacation holiday leave laptop notebook usage use compare comparison table index disk memory backup restore'.split(' ');

function corpus(): FixturePage[] {
  const rnd = rng(20261205);
  const word = () => WORDS[Math.floor(WORDS.length * rnd() ** 1.6)]!;
  const sites = ['a', 'b', 'c', 'd'].map((s) => `http://${s}.alternatives.test`);
  return Array.from({ length: 600 }, (_, i) => ({
    url: `${sites[i % (i % 5 === 0 ? 2 : 4)]}/p${i}.html`,
    title: Array.from({ length: 1 + Math.floor(rnd() * 3) }, word).join(' '),
    text: Array.from({ length: 15 + Math.floor(rnd() * 120) }, (_, k) => (k % 7 === 6 ? `w${Math.floor(rnd() * 300)}` : word())).join(' '),
    boost: rnd(),
  }));
}

/** Words with synonyms (the file below), with a variant (use: usage, compare: comparison), and OR. */
const QUERIES = ['vacation', 'laptop disk', 'vacation backup memory', 'use', 'compare table', 'laptop use', 'index OR restore', 'w3 OR w9 disk', 'holiday notebook'];
const PAGES = [{}, { hitsPerSite: 0 }, { start: 10 }, { start: 30, hitsPerPage: 20, hitsPerSite: 3 }];

test('words with alternatives are counted: an exact total past a small pool, and the page scoring every match shows, with partial matches joining or not', async () => {
  const dir = tempCrawlDir();
  try {
    await buildCrawl(dir, corpus());
    const synonyms = path.join(dir, 'synonyms.txt');
    fs.writeFileSync(synonyms, 'vacation, holiday, leave\nlaptop, notebook\n');
    let filled = 0;
    for (const partialBelow of ['1000', '50']) {
      const conf = Conf.load({ overrides: { 'searcher.synonyms.file': synonyms, 'searcher.candidates': '20', 'searcher.partial.below': partialBelow } });
      const snaps = await CrawlSnapshots.open(dir, searchSettings(conf));
      try {
        for (const query of QUERIES)
          for (const page of PAGES) {
            const req = { query, ...page };
            const counted = search(snaps.current, req);
            assert.ok(counted.query.required.some((g) => g.length > 1), `${query}: no word with alternatives`);
            const exhaustive = search(snaps.current, req, { exhaustive: true });
            if (exhaustive.total > 20) filled++;
            assert.equal(shown(counted), shown(exhaustive), JSON.stringify(req));
          }
      } finally {
        snaps.close();
      }
    }
    assert.ok(filled > 40, `only ${filled} result pages with more matches than the pool`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a count of word groups holds a document to a word when it holds any of its terms', async () => {
  const dir = tempCrawlDir();
  try {
    await buildCrawl(dir, corpus());
    const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
    try {
      const { reader, analyzer } = snaps.current;
      const holders = (t: string) => new Set(reader.postings(reader.termId(t)).docs);
      const groups = [['vacation', 'holiday'], ['laptop', 'notebook'], ['disk']].map((g) => g.map((w) => analyzer.terms(w)[0]!));
      const terms = groups.flat();
      for (const t of terms) assert.ok(reader.termId(t) >= 0, `${t} is not a term of the index`);
      const held = new Map<number, number>();
      for (const g of groups) for (const d of new Set(g.flatMap((t) => [...holders(t)]))) held.set(d, (held.get(d) ?? 0) + 1);
      const full = [...held.values()].filter((n) => n === groups.length).length;
      const counts = reader.countMatches(terms, undefined, undefined, groups);
      assert.equal([counts.full, counts.some], [full, held.size - full]);
      assert.ok(full > 0 && full < reader.countMatches(['disk']).full, `${full} full matches`);
      assert.throws(() => reader.countMatches(['disk'], undefined, undefined, Array.from({ length: 9 }, () => ['disk'])), /9 word groups: at most 8/);
    } finally {
      snaps.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
