/**
 * Navigation pages through the whole path: a segment whose parse marks most
 * of a module list's text as furniture (runs of links), indexed by the
 * indexer, merged, and searched through a snapshot of the published index.
 * The module list names `tarfile` more densely than the page about it; its
 * text counts at its prose share (crawler/parse/page-shape), so the page
 * about it ranks first, and /explain shows the weight. An all-in-one page,
 * whose sections are headed by the other pages' titles, is weighed by what
 * is its own of its text.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { openIndex } from '../../shared/index/reader.js';
import { Conf } from '../../shared/conf.js';
import { explainScore } from '../../searcher/explain.js';
import { readQuery, search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { explainPage } from '../../searcher/http/docpages.js';
import { makeCrawl, writeSegment, writeWebDb, type StorePage } from '../fixtures/crawlstore.js';

const names = 'tarfile zipfile gzip bz2 lzma zlib shutil glob fnmatch tempfile tarfile archives csv configparser tomllib netrc plistlib tarfile';
const intro = 'The modules described in this chapter.';
const LIST = `${intro} ${names}`;
const PAGES: StorePage[] = [
  // The module list: its introduction is prose, the names after it a run of links.
  { url: 'http://docs.test/library/archiving.html', title: 'Data Compression and Archiving', text: LIST, furniture: [[intro.length + 1, LIST.length]] },
  {
    url: 'http://docs.test/library/archive-formats.html',
    title: 'Read and write archive files',
    text: 'The tarfile module makes it possible to read and write archives, including those using gzip, bz2 and lzma compression. Use the zipfile module to read or write zip files, or the higher-level functions in shutil. Some facts and figures about the formats supported, the members of an archive and how they are extracted safely follow.',
  },
  { url: 'http://docs.test/library/csv.html', title: 'CSV File Reading and Writing', text: 'The csv module implements classes to read and write tabular data in CSV format.' },
  { url: 'http://docs.test/library/glob.html', title: 'Unix style pathname pattern expansion', text: 'The glob module finds all the pathnames matching a specified pattern.' },
];
const csv = PAGES[2]!;
const glob = PAGES[3]!;
const ALL_INTRO = 'Every page of the library in one.';
const ALL = `${ALL_INTRO} ${csv.title} ${csv.text} ${glob.title} ${glob.text} pattern pathnames`;
PAGES.push({
  url: 'http://docs.test/library/all.html',
  title: 'The library on one page',
  text: ALL,
  sections: [
    { heading: 'The library on one page', level: 1, offset: 0 },
    { heading: csv.title, level: 2, offset: ALL_INTRO.length + 1 },
    { heading: glob.title, level: 2, offset: ALL.indexOf(glob.title) },
  ],
});

test('a navigation page: its text weight kept by the indexer and the merge; it ranks below the page about the word, as /explain shows', async () => {
  const crawl = makeCrawl();
  try {
    const seg = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), PAGES);
    writeWebDb(crawl, [], []);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [seg] });
    const own = await openIndex(`${seg}/index`);
    const list = own.idOf(PAGES[0]!.url)!;
    const weight = Math.round(((intro.length + 1) / LIST.length) * 100) / 100;
    assert.is(own.prose(list), weight, 'the list\'s weight is its prose share');
    assert.is(own.doc(list).prose, weight);
    assert.is(own.prose(own.idOf(PAGES[1]!.url)!), 1);
    assert.is(own.doc(own.idOf(PAGES[1]!.url)!).prose, undefined, 'an ordinary page stores none');
    own.close();
    await merge(crawl.conf, { index: crawl.index, segments: [seg] });

    const snaps = await CrawlSnapshots.open(crawl.dir, searchSettings(Conf.load()));
    try {
      const lease = snaps.acquire();
      try {
        const snap = lease.snapshot;
        const id = (url: string) => snap.reader.idOf(url)!;
        assert.is(snap.reader.prose(id(PAGES[0]!.url)), weight, 'merged');
        assert.is(snap.reader.prose(id(PAGES[1]!.url)), 1);
        const all = id('http://docs.test/library/all.html');
        const allWeight = Math.round(((ALL_INTRO.length + 1) / ALL.length) * 100) / 100;
        assert.is(snap.reader.prose(all), Math.max(0.1, allWeight), 'the all-in-one page: its own text is its introduction');
        const globHits = search(snap, { query: 'pathnames pattern', hitsPerPage: 10, hitsPerSite: 0 }).hits.map((h) => h.doc.url);
        assert.equal(globHits.slice(0, 2), [glob.url, 'http://docs.test/library/all.html'], 'the page itself first, its copy after');
        const hits = search(snap, { query: 'tarfile', hitsPerPage: 10, hitsPerSite: 0 }).hits.map((h) => h.doc.url);
        assert.equal(hits.slice(0, 2), [PAGES[1]!.url, PAGES[0]!.url]);
        const { query } = readQuery('tarfile', snap.analyzer, snap.settings);
        const nav = explainScore(snap, id(PAGES[0]!.url), query);
        const page = explainScore(snap, id(PAGES[1]!.url), query);
        // Scored as an ordinary page, the list would be first: the weight is what puts it second.
        assert.ok(nav.bm25f + nav.sectionLift + nav.proximity > page.bm25f + page.sectionLift + page.proximity, `the list's words alone outscore the page: ${nav.bm25f} against ${page.bm25f}`);
        assert.is(nav.prose, weight);
        assert.ok(Math.abs(nav.score - (weight * (nav.bm25f + nav.sectionLift + nav.proximity) + nav.linkPrior)) < 1e-12);
        assert.ok(nav.score < page.score);
        const html = explainPage(snap.reader.doc(id(PAGES[0]!.url)), 'tarfile', nav, 'all');
        assert.ok(html.includes(`score = ${weight} × (BM25F `), 'the weight in the sum');
        assert.ok(html.includes(`its text counts at ${weight}, the share of it that is prose`));
      } finally {
        lease.release();
      }
    } finally {
      await snaps.close();
    }
  } finally {
    crawl.cleanup();
  }
});

test.run();
