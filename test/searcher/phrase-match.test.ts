/** Phrases checked on a real index: the positions, read from disk, only for a page whose title or body holds every word of the phrase. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Matcher } from '../../searcher/query/match.js';
import { readQuery, search } from '../../searcher/search.js';
import type { IndexReader } from '../../shared/index/types.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

const PAGES = [
  // Both words, but one in the title and the other in the body: no phrase can stand there.
  { url: 'http://127.0.7.1/split.html', title: 'Lantern guide', text: 'The harbor keeps its boats in rows.' },
  { url: 'http://127.0.7.1/body.html', title: 'Notes', text: 'Every lantern harbor is lit at dusk.' },
  { url: 'http://127.0.7.1/title.html', title: 'Lantern harbor', text: 'Lit at dusk.' },
  // Both words in the body, in the other order.
  { url: 'http://127.0.7.1/apart.html', title: 'Notes', text: 'The harbor has a lantern.' },
];

test('a phrase is matched on the positions of the pages whose title or body holds all its words, and no other page has its positions read', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const { query } = readQuery('"lantern harbor"', snap.analyzer, snap.settings, snap.related);
    const read: number[] = [];
    let doc = -1;
    // The index as it is, each page whose positions are read noted.
    const reader: IndexReader = Object.create(snap.reader, { entryPositions: { value: (e: number, max?: number) => (read.push(doc), snap.reader.entryPositions(e, max)) } });
    const matcher = new Matcher(reader, query);
    const matched: string[] = [];
    for (doc = 0; doc < snap.reader.meta.docCount; doc++) if (matcher.matchOf(doc) === 'all') matched.push(snap.reader.doc(doc).url);
    assert.equal(matched.sort(), ['http://127.0.7.1/body.html', 'http://127.0.7.1/title.html']);
    const split = snap.reader.idOf('http://127.0.7.1/split.html');
    assert.ok(split !== undefined && !read.includes(split), `positions read of pages ${read}`);
    assert.equal(new Set(read).size, 3);
    assert.equal(search(snap, { query: '"lantern harbor"', hitsPerSite: 0 }).hits.map((h) => h.doc.url).sort(), matched);
  });
});

test.run();
