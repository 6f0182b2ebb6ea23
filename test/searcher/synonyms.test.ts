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
import { search, type SearchResult } from '../../searcher/search.js';
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
  assert.equal(q.alternatives, [[['vacation'], ['holiday'], ['annual', 'leave']]]);
  assert.equal(analyzeQuery(parseQuery('vacation leave'), a, new Set(), syn).alternatives, [[['vacation'], ['holiday'], ['annual']]], 'a word typed scores on its own');
  assert.is(analyzeQuery(parseQuery('"vacation" days'), a, new Set(), syn).required[0]!.length, 1);
  assert.is(analyzeQuery(parseQuery('title:vacation'), a, new Set(), syn).required[0]!.length, 1);
  // A synonym the user also typed scores in full.
  assert.equal([...analyzeQuery(parseQuery('vacation holiday'), a, new Set(), syn).weights], [['annual', 0.25], ['leave', 0.25]]);
});

/** Searches `query` over a fresh crawl of `pages`, once per entry of `files`: with the synonyms in FILE (true) or none. */
async function searchCrawl(pages: Parameters<typeof buildCrawl>[1], query: string, files: boolean[]): Promise<SearchResult[]> {
  const dir = tempCrawlDir();
  try {
    await buildCrawl(dir, pages);
    const file = path.join(dir, 'syn.txt');
    fs.writeFileSync(file, FILE);
    const out: SearchResult[] = [];
    for (const withFile of files) {
      const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load({ overrides: { 'searcher.synonyms.file': withFile ? file : '' } })));
      try {
        const lease = snaps.acquire();
        try {
          out.push(search(lease.snapshot, { query, hitsPerSite: 0 }));
        } finally {
          lease.release();
        }
      } finally {
        await snaps.close();
      }
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const urls = (r: SearchResult, n: number) => r.hits.slice(0, n).map((h) => h.doc.url);

test('search: a page using only a synonym is found, below the page with the word typed', async () => {
  const [without, withSynonyms] = await searchCrawl(
    [
      { url: 'http://127.0.6.40/leave.html', title: 'Annual leave', text: 'Everyone gets thirty days of annual leave a year.' },
      { url: 'http://127.0.6.41/vacation.html', title: 'Vacation planner', text: 'Plan your vacation days with your team.' },
      { url: 'http://127.0.6.42/other.html', title: 'Expenses', text: 'File expense reports within thirty days.' },
    ],
    'vacation days',
    [false, true],
  );
  for (const [r, expected] of [
    [without!, ['http://127.0.6.41/vacation.html']],
    [withSynonyms!, ['http://127.0.6.41/vacation.html', 'http://127.0.6.40/leave.html']],
  ] as const) {
    assert.equal(urls(r, expected.length), [...expected]);
    assert.is(r.total - r.partial, expected.length, 'pages holding every word (or a synonym of it)');
  }
});

test('search: a page about one synonym comes before an index of pages that names them all', async () => {
  const [r] = await searchCrawl(
    [
      { url: 'http://127.0.6.43/leave/annual.html', title: 'Annual leave', text: 'Everyone has thirty days of annual leave a year. Book annual leave two weeks ahead.' },
      { url: 'http://127.0.6.43/leave/holidays.html', title: 'Public holidays', text: 'The office is closed on public holidays. A holiday that falls on a weekend moves to the Monday.' },
      { url: 'http://127.0.6.43/leave/index.html', title: 'Leave', text: 'Annual leave: thirty days a year. Public holidays: the days the office is closed.' },
      { url: 'http://127.0.6.44/other.html', title: 'Expenses', text: 'File expense reports within thirty days.' },
    ],
    'vacation days',
    [true],
  );
  assert.equal(urls(r!, 2), ['http://127.0.6.43/leave/annual.html', 'http://127.0.6.43/leave/index.html']);
});

test.run();
