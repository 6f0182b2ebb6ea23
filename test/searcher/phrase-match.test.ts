/** Phrases checked on a real index: the positions, read from disk, only for a page whose title or body holds every word of the phrase. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Matcher, type MatchKind } from '../../searcher/query/match.js';
import type { Snapshot } from '../../searcher/snapshot.js';
import { readQuery, search } from '../../searcher/search.js';
import type { IndexReader } from '../../shared/index/types.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

const SITE = 'http://127.0.7.1';
const PAGES = [
  // Both words, but one in the title and the other in the body: no phrase can stand there.
  { url: `${SITE}/split.html`, title: 'Lantern guide', text: 'The harbor keeps its boats in rows.' },
  { url: `${SITE}/body.html`, title: 'Notes', text: 'Every lantern harbor is lit at dusk.' },
  { url: `${SITE}/title.html`, title: 'Lantern harbor', text: 'Lit at dusk.' },
  // Both words in the body, in the other order.
  { url: `${SITE}/apart.html`, title: 'Notes', text: 'The harbor has a lantern.' },
  { url: `${SITE}/partial.html`, title: 'Orchard', text: 'An apple, a harbor and a lantern.' },
];

/** Each page's kind of match of `q`, and the pages whose positions were read to tell it. */
function matched(snap: Snapshot, q: string): { kinds: Map<string, MatchKind>; read: Set<string> } {
  const { query } = readQuery(q, snap.analyzer, snap.settings, snap.related);
  const read = new Set<string>();
  let doc = -1;
  // The index as it is, each page whose positions are read noted.
  const reader: IndexReader = Object.create(snap.reader, { entryPositions: { value: (e: number, max?: number) => (read.add(snap.reader.doc(doc).url), snap.reader.entryPositions(e, max)) } });
  const matcher = new Matcher(reader, query);
  const kinds = new Map<string, MatchKind>();
  for (doc = 0; doc < snap.reader.meta.docCount; doc++) kinds.set(snap.reader.doc(doc).url, matcher.matchOf(doc));
  return { kinds, read };
}

test('a phrase is matched on the positions of the pages whose title or body holds all its words, and no other page has its positions read', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const { kinds, read } = matched(snap, '"lantern harbor"');
    const all = [...kinds].filter(([, k]) => k === 'all').map(([url]) => url);
    assert.equal(all.sort(), [`${SITE}/body.html`, `${SITE}/title.html`]);
    assert.equal([...read].sort(), [`${SITE}/apart.html`, `${SITE}/body.html`, `${SITE}/partial.html`, `${SITE}/title.html`]);
    assert.equal(search(snap, { query: '"lantern harbor"', hitsPerSite: 0 }).hits.map((h) => h.doc.url).sort(), all);
  });
});

test('a phrase is not read where the other words already make the page a partial match', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const { kinds, read } = matched(snap, 'apple "lantern harbor" zebra');
    // An apple and no zebra: partial whatever the phrase.
    assert.is(kinds.get(`${SITE}/partial.html`), 'some');
    assert.ok(!read.has(`${SITE}/partial.html`), [...read].join(' '));
    // Neither word: the phrase alone tells.
    assert.is(kinds.get(`${SITE}/body.html`), 'some');
    assert.is(kinds.get(`${SITE}/apart.html`), 'none');
    assert.ok(read.has(`${SITE}/apart.html`));
  });
});

test.run();
