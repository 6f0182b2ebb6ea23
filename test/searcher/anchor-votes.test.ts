/**
 * Anchor texts counted by repetition (searcher.bm25f.anchor.b 0): an
 * anchor occurrence weighs the same however many other links point to the
 * page, and over a real index the page most links name "event loop" comes
 * before a page with one such link and a denser body, which led while the
 * anchor field was length-normalised. And the anchor votes
 * (searcher/rank/naming): when both pages' bodies repeat the words until
 * BM25F saturates, the page the links call by them still comes first.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { FIELDS, type Field } from '../../shared/index/types.js';
import { bm25fTerm, type TermStats } from '../../searcher/rank/bm25f.js';
import { anchorVotes } from '../../searcher/rank/naming.js';
import { rankParams } from '../../searcher/rank/params.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { withCrawlSnapshot, type FixturePage } from './crawl-fixture.js';

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

/** The first two hits for "event loop" over a real index of `pages`, with the shipped settings and with each of `variants` overridden. */
const eventLoopTop = (pages: FixturePage[], variants: Record<string, string>[]): Promise<string[][]> =>
  withCrawlSnapshot(pages, (snap) =>
    [{}, ...variants].map((overrides) =>
      search({ ...snap, settings: searchSettings(Conf.load({ overrides })) }, { query: 'event loop', hitsPerSite: 0 }).hits.map((h) => h.doc.url).slice(0, 2),
    ),
  );

test('search: the page most links call "event loop" comes first with anchors counted by repetition, second with them length-normalised', async () => {
  assert.equal(await eventLoopTop(PAGES, [{ 'searcher.bm25f.anchor.b': '0.5' }]), [
    [REFERENCE, POLICIES],
    [POLICIES, REFERENCE],
  ]);
});

test("anchorVotes: the weight × each term's idf × a/(a + k1), the best alternative of a word; nothing without links naming a word", () => {
  const sum = (v: Float64Array) => v.reduce((a, b) => a + b, 0);
  const best = (v: Float64Array) => v[0]! + Math.max(v[1]!, v[2]!);
  const cases: [idfs: number[], anchor: number[], weight: number, combine: (v: Float64Array) => number, want: number][] = [
    [[2, 3], [2, 0], 0.1, sum, 0.1 * 1],
    [[2, 3], [2, 6], 0.1, sum, 0.1 * (1 + 2.25)],
    [[2, 3], [0, 0], 0.1, sum, 0],
    [[2, 3], [2, 6], 0, sum, 0],
    // A word and its synonym (terms 1 and 2) count once, as in BM25F.
    [[2, 3, 3], [2, 6, 6], 0.1, best, 0.1 * (1 + 2.25)],
  ];
  for (const [idfs, anchor, weight, combine, want] of cases) {
    const got = anchorVotes(idfs, (t) => anchor[t]!, 2, weight, combine, new Float64Array(idfs.length));
    assert.ok(Math.abs(got - want) < 1e-12, `${idfs} ${anchor} ${weight}: ${got}, not ${want}`);
  }
  const shipped = rankParams(Conf.load());
  const w = shipped.anchorVoteWeight;
  assert.ok(w > 0 && anchorVotes([3], () => 1e9, shipped.bm25f.k1, w, sum, new Float64Array(1)) <= 3 * w, 'shipped: on, and at most the weight × the idf however many links');
});

const LOOP = 'http://127.0.6.81/asyncio-eventloop.html';
const RUNNER = 'http://127.0.6.82/asyncio-runner.html';
const loopText = (n: number, filler: string) => Array.from({ length: n }, (_, i) => `Step ${i}: the event loop ${filler}.`).join(' ');
const SATURATED = [
  { url: LOOP, title: 'Reference', text: loopText(40, 'runs callbacks, watches descriptors and schedules timers for every task'), anchors: ['event loop', 'the event loop', 'event loop methods', 'an event loop', 'event loop reference', 'loop'] },
  { url: RUNNER, title: 'Runners', text: loopText(120, 'runs'), anchors: ['runners'] },
  ...['streams', 'queues', 'locks', 'futures', 'tasks', 'subprocesses', 'exceptions', 'platforms'].map((w, i) => ({ url: `http://127.0.6.${90 + i}/${w}.html`, title: w, text: `The ${w} of the library, and how a program uses them.`, anchors: [w] })),
];

test('search: between two pages whose bodies saturate "event loop", the one links call so comes first with anchor votes, second without', async () => {
  assert.equal(await eventLoopTop(SATURATED, [{ 'searcher.naming.anchor.weight': '0' }]), [
    [LOOP, RUNNER],
    [RUNNER, LOOP],
  ]);
});

test.run();
