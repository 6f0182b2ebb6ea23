/**
 * Derivational variants of a question's words that Porter2 stems apart
 * (searcher/query/variants): which words gain which, as a table; what the
 * query becomes; and a search over a real index where the page titled with
 * the noun (`Disk Usage`) answers the question asked with the verb.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { analyzeQuery } from '../../searcher/query/analyze.js';
import { parseQuery } from '../../searcher/query/parse.js';
import { NO_SYNONYMS } from '../../searcher/query/synonyms.js';
import { derivedForms } from '../../searcher/query/variants.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';

const analyzer = new Analyzer({ stemEnglish: true });
const stem = (w: string) => analyzer.terms(w).join(' ');

const FORMS: [word: string, variants: string[]][] = [
  ['use', ['usage']],
  ['using', ['usage']], // the base is use, not the English word us
  ['storing', ['storage']],
  ['compare', ['comparison']],
  ['compared', ['comparison']],
  ['convert', ['conversion']],
  ['extend', ['extension']],
  ['modify', ['modification']],
  ['describe', ['description']],
  ['reduce', ['reduction']],
  ['insert', []], // Porter2 already stems insertion to insert
  ['exists', []],
  ['damaged', []], // verb to noun only: never damage → dame
  ['passed', []], // the base is pass, not passe
  ['text', []], // texture is another word
  ['read', []], // a reader is an agent, not a degree
  ['sqlite', []],
  ['it', []],
];

for (const [word, variants] of FORMS) test(`variants of ${word}`, () => assert.equal(derivedForms(word, stem), variants));

test('a plain word typed once gains its variants as alternatives at searcher.variants.weight; quoted, field and repeated words do not', () => {
  const syn = { ...NO_SYNONYMS, derivedWeight: 0.75 };
  const q = (s: string) => analyzeQuery(parseQuery(s), analyzer, new Set(['a', 'does']), syn);
  const table = q('disk space a table does use');
  assert.equal(table.terms, ['disk', 'space', 'tabl', 'use', 'usag']);
  assert.equal([...table.weights], [['usag', 0.75]]);
  assert.equal(table.alternatives, [[['use'], ['usag']]]);
  assert.equal(q('"use" disk').terms, ['use', 'disk']);
  assert.equal(q('title:use').terms, ['use']);
  assert.equal(q('use it, use it up').terms, ['use', 'it', 'up'], 'a word typed twice scores on its own, and a variant would score apart from it');
  assert.equal(analyzeQuery(parseQuery('use'), analyzer, new Set()).terms, ['use'], 'weight 0: none');
  assert.throws(() => searchSettings(Conf.load({ overrides: { 'searcher.variants.weight': '-1' } })), /property searcher.variants.weight must be 0 or more, not -1/);
});

test('the page named with the noun answers the question asked with the verb (how much disk space does a table use)', async () => {
  const dir = tempCrawlDir();
  const filler = (i: number) => Array.from({ length: 6 }, (_, k) => `part ${i}.${k} of the manual explains the server settings with examples`).join('. ');
  try {
    await buildCrawl(dir, [
      { url: 'http://docs.test/usage', title: 'Determining Disk Usage', text: 'Each table has a primary heap disk file. The disk usage of a table, its indexes and its toast data can be read from the size functions.' },
      ...Array.from({ length: 6 }, (_, i) => ({
        url: `http://docs.test/page-${i}`,
        title: `Chapter ${i}`,
        text: `${filler(i)}. Use a table space to put a table on another disk; the server can use much less space. ${filler(i + 1)}.`,
      })),
    ]);
    const first = async (overrides: Record<string, string>) => {
      const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load({ overrides })));
      try {
        return search(snaps.current, { query: 'how much disk space does a table use', hitsPerSite: 0 }).hits[0]?.doc.url;
      } finally {
        snaps.close();
      }
    };
    assert.is(await first({}), 'http://docs.test/usage', 'the shipped settings');
    assert.is.not(await first({ 'searcher.variants.weight': '0' }), 'http://docs.test/usage', 'without variants a page that uses the verb wins');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
