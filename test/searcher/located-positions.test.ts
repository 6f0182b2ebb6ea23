/**
 * Positions of the candidates a search located (DocTerms.locate): their
 * counts of positions are known from the postings' frequencies, so a word
 * with none in the title or body costs no entry search, one with one position
 * is read without the forward file's counts, and a phrase that a word of one
 * position pins is told from the words' first positions alone. Every answer
 * is the one read without them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasPhrase, Matcher, matchTerms, phraseOfFirsts, type MatchKind } from '../../searcher/query/match.js';
import { DocTerms } from '../../searcher/rank/docterms.js';
import { readQuery } from '../../searcher/search.js';
import type { Snapshot } from '../../searcher/snapshot.js';
import type { IndexReader } from '../../shared/index/types.js';
import { rng } from '../fixtures/rng.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

const SITE = 'http://127.0.7.2';
const PAGES = [
  { url: `${SITE}/once.html`, title: 'Notes', text: 'Every lantern harbor is lit at dusk.' },
  { url: `${SITE}/apart.html`, title: 'Notes', text: 'The harbor has a lantern.' },
  { url: `${SITE}/late.html`, title: 'Notes', text: 'A lantern, then the harbor lantern harbor lights.' },
  { url: `${SITE}/title.html`, title: 'Lantern harbor', text: 'A harbor at dusk, a lantern lit.' },
  { url: `${SITE}/zebra.html`, title: 'Notes', text: 'The harbor and the lantern, far apart, at the harbor.' },
];

/** The index as it is, each entry search and each read of positions noted (entry, max, count). */
function counting(snap: Snapshot) {
  const seen = { entries: 0, reads: [] as { max: number | undefined; count: number | undefined }[] };
  const reader: IndexReader = Object.create(snap.reader, {
    entry: { value: (id: number, t: number) => (seen.entries++, snap.reader.entry(id, t)) },
    entryPositions: { value: (e: number, max?: number, count?: number) => (seen.reads.push({ max, count }), snap.reader.entryPositions(e, max, count)) },
  });
  return { reader, seen };
}

const allIds = (snap: Snapshot) => Uint32Array.from({ length: snap.reader.meta.docCount }, (_, i) => i);

test('a located page\'s positions are read with their count, and a word in its URL alone costs no entry search', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const { reader, seen } = counting(snap);
    const terms = ['lantern', 'harbor', 'zebra'];
    const located = new DocTerms(reader, terms);
    const plain = new DocTerms(snap.reader, terms);
    const ids = allIds(snap);
    located.locate(ids);
    ids.forEach((id, row) => {
      located.selectAt(row, id);
      plain.select(id);
      for (const t of terms) {
        const slot = located.slot(t);
        seen.entries = 0;
        seen.reads.length = 0;
        const got = located.positions(slot);
        assert.equal(got, plain.positions(slot), `${snap.reader.doc(id).url}: ${t}`);
        assert.is(located.positionCount(slot), got.length);
        if (t === 'zebra') assert.equal([seen.entries, seen.reads.length], [0, 0], `${snap.reader.doc(id).url}: ${t} is in its URL alone`);
        else assert.equal(seen.reads, [{ max: undefined, count: got.length }], `${snap.reader.doc(id).url}: ${t}`);
      }
    });
  });
});

/** Each page's kind of match of `q`, located or not, and how many reads of positions past the first one a located search made. */
function kinds(snap: Snapshot, q: string) {
  const { query } = readQuery(q, snap.analyzer, snap.settings, snap.related);
  const { reader, seen } = counting(snap);
  const docTerms = new DocTerms(reader, matchTerms(query));
  const located = new Matcher(reader, query, docTerms);
  const plain = new Matcher(snap.reader, query);
  const ids = allIds(snap);
  docTerms.locate(ids);
  const out: { url: string; kind: MatchKind; plain: MatchKind; whole: number }[] = [];
  ids.forEach((id, row) => {
    seen.reads.length = 0;
    docTerms.selectAt(row, id);
    const kind = located.matchOf(id);
    out.push({ url: snap.reader.doc(id).url, kind, plain: plain.matchOf(id), whole: seen.reads.filter((r) => r.max !== 1).length });
  });
  return out;
}

test('a phrase a word of one position pins is told from the first positions, and every page matches as it does read whole', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    for (const q of ['"lantern harbor"', '"harbor lantern"', '"harbor is lit"', 'title:"lantern harbor"', '"lantern harbor lights"'])
      for (const m of kinds(snap, q)) assert.is(m.kind, m.plain, `${q}: ${m.url}`);
    const byUrl = new Map(kinds(snap, '"lantern harbor"').map((m) => [m.url, m]));
    // Each word once: both firsts tell, in or out of order.
    for (const page of ['once', 'apart']) assert.is(byUrl.get(`${SITE}/${page}.html`)!.whole, 0, page);
    assert.is(byUrl.get(`${SITE}/once.html`)!.kind, 'all');
    assert.is(byUrl.get(`${SITE}/apart.html`)!.kind, 'none');
    // Twice each, the phrase past the first: read whole.
    assert.ok(byUrl.get(`${SITE}/late.html`)!.whole > 0);
    assert.is(byUrl.get(`${SITE}/late.html`)!.kind, 'all');
  });
});

test('phraseOfFirsts tells a phrase only as hasPhrase does, and tells most that a word of one position pins', () => {
  const rand = rng(28);
  let told = 0;
  let pinned = 0;
  for (let round = 0; round < 4000; round++) {
    const words = 2 + Math.floor(rand() * 2);
    const lists = Array.from({ length: words }, () => [...new Set(Array.from({ length: rand() < 0.5 ? 1 : 1 + Math.floor(rand() * 4) }, () => Math.floor(rand() * 12)))].sort((a, b) => a - b));
    const opts = rand() < 0.3 ? { boundary: Math.floor(rand() * 12) } : rand() < 0.2 ? { limit: Math.floor(rand() * 12) } : {};
    const got = phraseOfFirsts(lists.map((l) => l[0]!), lists.map((l) => l.length), opts);
    if (lists.some((l) => l.length === 1)) pinned++;
    if (got === undefined) continue;
    told++;
    assert.is(got, hasPhrase(lists, opts), JSON.stringify({ lists, opts }));
  }
  assert.ok(told > pinned / 2, `${told} told of ${pinned} pinned`);
  assert.is(phraseOfFirsts([3, 9], [2, 3]), undefined, 'no word of one position: later positions must tell');
  assert.is(phraseOfFirsts([3, 7], [0, 1]), false, 'a word without positions');
});

test.run();
