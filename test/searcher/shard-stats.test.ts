/**
 * The broker's rules as tables of cases: statistics over shards combined the
 * way one merged index counts them, shard addresses, and the partial-results notice.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { missingNotice } from '../../searcher/broker/missing.js';
import { shardUrl } from '../../searcher/broker/client.js';
import { combineStats, type ShardStats } from '../../searcher/shard/protocol.js';

const stats = (docCount: number, content: number, sectionCount = 0, avgSectionLength = 0): ShardStats => ({
  version: 'g', docCount, deletedCount: 0, termCount: 0, createdAt: 0, loadedAt: 0, indexSegments: [], segments: 1,
  avgFieldLength: { title: 4, anchor: 0, url: 3, heading: 1, content }, avgSectionLength, sectionCount, analyzer: new Analyzer().options,
});

test('combineStats: documents summed, lengths weighted by documents (sections by sections), a term counted per field then the largest field', () => {
  const cases: [string, Parameters<typeof combineStats>[0], string[], { docCount: number; content: number; df: Record<string, number>; section?: number }][] = [
    ['one shard is itself', [{ stats: stats(10, 100), df: new Map([['a', [1, 0, 0, 0, 7]]]) }], ['a'], { docCount: 10, content: 100, df: { a: 7 } }],
    [
      'a section is averaged over the sections, not the documents',
      [
        { stats: stats(10, 100, 30, 50), df: new Map() },
        { stats: stats(30, 200, 10, 250), df: new Map() },
        { stats: stats(5, 10), df: new Map() },
      ],
      [],
      { docCount: 45, content: (1000 + 6000 + 50) / 45, df: {}, section: (30 * 50 + 10 * 250) / 40 },
    ],
    [
      // a: title 3+4=7 beats content 5+1=6, though each shard alone has a larger content count than one of the title ones.
      'the largest field of the sums, not the sum of the largest',
      [
        { stats: stats(10, 100), df: new Map([['a', [3, 0, 0, 0, 5]]]) },
        { stats: stats(30, 200), df: new Map([['a', [4, 0, 0, 0, 1]]]) },
      ],
      ['a'],
      { docCount: 40, content: 175, df: { a: 7 } },
    ],
    ['a term no shard knows', [{ stats: stats(5, 10), df: new Map() }, { stats: stats(5, 30), df: new Map() }], ['zz'], { docCount: 10, content: 20, df: { zz: 0 } }],
    ['no documents', [{ stats: stats(0, 0), df: new Map() }], [], { docCount: 0, content: 0, df: {} }],
  ];
  for (const [name, shards, terms, want] of cases) {
    const g = combineStats(shards, terms);
    assert.equal({ docCount: g.docCount, content: g.avgFieldLength.content, df: g.df, section: g.avgSectionLength }, { section: 0, ...want }, name);
  }
});

test('shardUrl: host:port or an http URL of a server root; anything else named in the message', () => {
  const cases: [string, string | RegExp][] = [
    ['127.0.0.1:8081', 'http://127.0.0.1:8081'],
    [' search-a:9000 ', 'http://search-a:9000'],
    ['http://10.0.0.5:8081/', 'http://10.0.0.5:8081'],
    ['search-a', /"search-a" is not host:port/],
    ['http://a:1/path', /not host:port/],
  ];
  for (const [spec, want] of cases) {
    if (typeof want === 'string') assert.is(shardUrl(spec), want, spec);
    else assert.throws(() => shardUrl(spec), want, spec);
  }
});

test('missingNotice: none when every shard answered; each missing shard once, with its reason', () => {
  assert.is(missingNotice([], 2), undefined);
  assert.is(
    missingNotice(
      [
        { shard: 'a:1', reason: 'connection refused' },
        { shard: 'a:1', reason: 'connection refused' },
      ],
      3,
    ),
    'Partial results: 1 of 3 shards did not answer (a:1: connection refused); pages they hold are missing.',
  );
});

test.run();
