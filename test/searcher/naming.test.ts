/**
 * The naming bonus (searcher/rank/naming): which query terms are identifiers,
 * what a title holding some of them earns, and a search over a real index
 * where the identifier's own page, outranked by a page using it at length,
 * comes first with the bonus and second without it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { analyzeQuery } from '../../searcher/query/analyze.js';
import { parseQuery } from '../../searcher/query/parse.js';
import { identifierTerms, namingBonus } from '../../searcher/rank/naming.js';
import { makeScorer } from '../../searcher/rank/score.js';
import { explainPage } from '../../searcher/http/docpages.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

test('identifierTerms: identifiers typed whole, not plain words, numbers, apostrophes or terms at a synonym weight', () => {
  const cases: [terms: string[], weights: Record<string, number>, want: number[]][] = [
    [['pg_dump', 'pg', 'dump', 'custom', 'format'], {}, [0]],
    [['pg_hba.conf', 'pg_hba', 'pg', 'hba', 'conf', 'authent'], {}, [0, 1]],
    [['push', '--force-with-lease', 'forc', 'with', 'leas'], {}, [1]],
    [['node_options=--max-old-space-size'], {}, [0]],
    [['streaming', 'replic'], {}, []],
    [['python', '3.11', 'don\'t'], {}, []],
    [['copy', 'shutil.copyfile'], { 'shutil.copyfile': 0.5 }, []],
  ];
  for (const [terms, weights, want] of cases) assert.equal(identifierTerms(terms, (t) => weights[t] ?? 1), want, terms.join(' '));
});

test('namingBonus: the weight times the share of the identifiers the title holds; nothing without identifiers or weight', () => {
  const title = (tf: number[]) => (t: number) => tf[t] ?? 0;
  const cases: [identifiers: number[], titleTf: number[], weight: number, want: number][] = [
    [[0], [1, 0, 0], 2, 2],
    [[0], [0, 3, 3], 2, 0],
    [[0, 1], [1, 0], 2, 1],
    [[0, 1], [2, 1], 2, 2],
    [[], [1, 1], 2, 0],
    [[0], [1], 0, 0],
  ];
  for (const [ids, tf, w, want] of cases) assert.is(namingBonus(ids, title(tf), w), want, `${ids} ${tf} ${w}`);
});

const MANUAL = 'http://127.0.6.61/app-pgdump.html';
const GUIDE = 'http://127.0.6.60/backup-dump.html';
const PAGES = [
  {
    url: GUIDE,
    title: 'SQL dump',
    text:
      'Back up with pg_dump. Run pg_dump nightly; pg_dump in the custom format compresses, and a custom format archive restores with pg_restore. ' +
      'Take a pg_dump before every upgrade, and keep each pg_dump in the custom format on another disk.',
  },
  {
    url: MANUAL,
    title: 'pg_dump',
    text: 'pg_dump extracts a database into a script file or an archive. Options: the output format, plain, custom, directory or tar; the file name; the compression level; the tables to leave out.',
  },
  { url: 'http://127.0.6.62/restore.html', title: 'Restore', text: 'pg_restore reads an archive in the custom format and loads it into a database.' },
];

test('search: the page titled by the identifier the query names comes first with the naming bonus, second without it; /explain shows the bonus', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const top = (weight: string) => {
      const s = { ...snap, settings: searchSettings(Conf.load({ overrides: { 'searcher.naming.weight': weight } })) };
      return search(s, { query: 'pg_dump custom format', hitsPerSite: 0 }).hits.map((h) => h.doc.url).slice(0, 2);
    };
    assert.equal(top('0'), [GUIDE, MANUAL]);
    assert.equal(top('2'), [MANUAL, GUIDE]);
    // Plain words earn nothing from a title holding them.
    assert.equal(search(snap, { query: 'sql dump', hitsPerSite: 0 }).hits[0]?.doc.url, GUIDE);
    const q = analyzeQuery(parseQuery('pg_dump custom format'), snap.analyzer, snap.settings.stopWords, snap.settings.synonyms);
    const id = snap.reader.idOf(MANUAL)!;
    const e = makeScorer(snap.reader, q.terms, snap.settings.rank, undefined, q.weights, q.alternatives).explain(id);
    assert.is(e.naming, 2);
    assert.match(explainPage(snap.reader.doc(id), 'pg_dump custom format', e, 'all'), /\+ naming 2/);
  });
});

test.run();
