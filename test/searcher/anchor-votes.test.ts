/**
 * Anchor texts counted by repetition (searcher.bm25f.anchor.b 0): an
 * anchor occurrence weighs the same however many other links point to the
 * page, and over a real index the page most links name "event loop" comes
 * before a page with one such link and a denser body, which led while the
 * anchor field was length-normalised.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { FIELDS, type Field } from '../../shared/index/types.js';
import { bm25fTerm, type TermStats } from '../../searcher/rank/bm25f.js';
import { rankParams } from '../../searcher/rank/params.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

const stats: TermStats = { docCount: 1000, avgFieldLength: () => 10, docFreq: () => 10 };
const doc = (anchorTf: number, anchorLength: number) => ({
  termFreq: (f: Field) => (f === 'anchor' ? anchorTf : 0),
  fieldLength: (f: Field) => (f === 'anchor' ? anchorLength : 10),
});

test('shipped settings: an anchor occurrence weighs the same at any anchor-field length; the count still saturates', () => {
  const p = rankParams(Conf.load()).bm25f;
  assert.is(p.fields.anchor.b, 0);
  const cases: [tf: number, length: number][] = [
    [1, 2],
    [1, 10],
    [1, 400],
    [5, 40],
    [5, 4000],
  ];
  for (const [tf, length] of cases) {
    const t = bm25fTerm('loop', doc(tf, length), stats, p);
    assert.is(t.tf, tf * p.fields.anchor.weight, `${tf} in ${length}`);
  }
  const score = (tf: number) => bm25fTerm('loop', doc(tf, 50), stats, p).score;
  assert.ok(score(1000) < score(1) * (p.k1 + 1), 'saturates below (k1 + 1) × one occurrence');
  assert.ok(FIELDS.every((f) => f === 'anchor' || p.fields[f].b > 0), 'the other fields stay length-normalised');
});

const REFERENCE = 'http://127.0.6.71/eventloop.html';
const POLICIES = 'http://127.0.6.72/policy.html';
const topics = ['running and stopping', 'scheduling callbacks', 'creating futures and tasks', 'opening network connections', 'watching file descriptors', 'working with sockets', 'unix signals', 'thread pools', 'error handling', 'debug mode'];
const PAGES = [
  {
    url: REFERENCE,
    title: 'Reference',
    text: `The event loop is the core of every program of this library. ${topics.map((t) => `This part covers ${t}: what each method does, what it returns, and the errors it raises.`).join(' ')} Each event loop runs in one thread.`,
    anchors: ['event loop', 'the event loop', 'event loop methods', ...topics],
  },
  {
    url: POLICIES,
    title: 'Policies',
    text: 'A policy decides which event loop a thread gets: the event loop policy creates an event loop on demand.',
    anchors: ['policies'],
  },
  { url: 'http://127.0.6.73/index.html', title: 'Index', text: 'The library: tasks, streams and queues.', anchors: ['home'] },
  { url: 'http://127.0.6.74/tasks.html', title: 'Tasks', text: 'A task wraps a coroutine and runs it when it can.', anchors: ['tasks'] },
];

test('search: the page most links call "event loop" comes first with anchors counted by repetition, second with them length-normalised', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const top = (overrides: Record<string, string>) => {
      return search({ ...snap, settings: searchSettings(Conf.load({ overrides })) }, { query: 'event loop', hitsPerSite: 0 }).hits.map((h) => h.doc.url).slice(0, 2);
    };
    assert.equal(top({}), [REFERENCE, POLICIES]);
    assert.equal(top({ 'searcher.bm25f.anchor.b': '0.5' }), [POLICIES, REFERENCE]);
  });
});

test.run();
