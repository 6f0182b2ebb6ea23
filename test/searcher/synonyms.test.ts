/**
 * Query-time synonyms: the file format and its errors, what a query word
 * expands to, and a search over a real index where a page that only uses a
 * synonym is found, below a page with the word typed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { analyzeQuery } from '../../searcher/query/analyze.js';
import { parseQuery } from '../../searcher/query/parse.js';
import { parseSynonyms, readSynonyms } from '../../searcher/query/synonyms.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';

const FILE = '# leave words\nvacation, holiday, Annual  Leave\n\nlaptop, notebook # computers\n';

test('a synonyms file: groups per line, comments, case and spaces folded, each entry maps to the others', () => {
  const s = parseSynonyms(FILE, 'syn.txt', 0.5);
  assert.equal(s.of.get('vacation'), ['holiday', 'annual leave']);
  assert.equal(s.of.get('annual leave'), ['vacation', 'holiday']);
  assert.equal(s.of.get('notebook'), ['laptop']);
  assert.is(s.of.get('computers'), undefined);
  assert.throws(() => parseSynonyms('vacation, holiday\nlonely\n', 'syn.txt', 0.5), /syn\.txt:2: a synonym group needs at least two entries/);
  assert.throws(() => readSynonyms('/nonexistent/syn.txt', 0.5), /cannot read the synonyms file \/nonexistent\/syn\.txt/);
  assert.is(readSynonyms(undefined, 0.5).of.size, 0);
});

test('the shipped file holds only commented examples', () => {
  const conf = Conf.load();
  assert.is(readSynonyms(conf.resolveFile(conf.get('searcher.synonyms.file')), 0.5).of.size, 0);
});

test('a plain word gains its synonyms as alternatives at a lower weight; quoted and field words do not', () => {
  const a = new Analyzer();
  const syn = parseSynonyms(FILE, 'syn.txt', 0.5);
  const q = analyzeQuery(parseQuery('vacation days'), a, new Set(), syn);
  assert.equal(q.required[0]!.map((m) => [m.terms.join(' '), m.phrase]), [['vacation', false], ['holiday', false], ['annual leave', true]]);
  assert.equal([...q.weights], [['holiday', 0.5], ['annual', 0.25], ['leave', 0.25]]);
  assert.is(analyzeQuery(parseQuery('"vacation" days'), a, new Set(), syn).required[0]!.length, 1);
  assert.is(analyzeQuery(parseQuery('title:vacation'), a, new Set(), syn).required[0]!.length, 1);
  // A synonym the user also typed scores in full.
  assert.equal([...analyzeQuery(parseQuery('vacation holiday'), a, new Set(), syn).weights], [['annual', 0.25], ['leave', 0.25]]);
});

test('search: a page using only a synonym is found, below the page with the word typed', async () => {
  const dir = tempCrawlDir();
  try {
    await buildCrawl(dir, [
      { url: 'http://127.0.6.40/leave.html', title: 'Annual leave', text: 'Everyone gets thirty days of annual leave a year.' },
      { url: 'http://127.0.6.41/vacation.html', title: 'Vacation planner', text: 'Plan your vacation days with your team.' },
      { url: 'http://127.0.6.42/other.html', title: 'Expenses', text: 'File expense reports within thirty days.' },
    ]);
    const file = path.join(dir, 'syn.txt');
    fs.writeFileSync(file, FILE);
    for (const [synonymsFile, expected] of [
      ['', ['http://127.0.6.41/vacation.html']],
      [file, ['http://127.0.6.41/vacation.html', 'http://127.0.6.40/leave.html']],
    ] as const) {
      const settings = searchSettings(Conf.load({ overrides: { 'searcher.synonyms.file': synonymsFile } }));
      const snaps = await CrawlSnapshots.open(dir, settings);
      try {
        const lease = snaps.acquire();
        try {
          const r = search(lease.snapshot, { query: 'vacation days', hitsPerSite: 0 });
          assert.equal(r.hits.slice(0, expected.length).map((h) => h.doc.url), [...expected]);
          assert.is(r.total - r.partial, expected.length, 'pages holding every word (or a synonym of it)');
        } finally {
          lease.release();
        }
      } finally {
        await snaps.close();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
