import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../crawler/cli.js';
import { dedup } from '../../crawler/dedup.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { prune, pruneCutoff } from '../../crawler/prune/tool.js';
import { INDEX_FORMAT_VERSION } from '../../shared/index/format.js';
import { openIndex } from '../../shared/index/reader.js';
import { listSegments } from '../../segments/segment.js';
import { makeCrawl, writeSegment, type Crawl } from '../fixtures/crawlstore.js';

const day = (d: number) => new Date(Date.UTC(2024, 0, d, 12));

/** Three segments: Jan 1 (a, b), Jan 5 (a re-fetched), Jan 20 (a again, c). Page b lives only in the oldest. */
async function crawlWithHistory(): Promise<{ crawl: Crawl; segs: string[] }> {
  const crawl = makeCrawl();
  const segs = [
    await writeSegment(crawl, day(1), [
      { url: 'http://a.test/a', title: 'A', text: 'alpha first version' },
      { url: 'http://a.test/b', title: 'B', text: 'bravo only here' },
    ]),
    await writeSegment(crawl, day(5), [{ url: 'http://a.test/a', title: 'A', text: 'alpha second version' }]),
    await writeSegment(crawl, day(20), [
      { url: 'http://a.test/a', title: 'A', text: 'alpha third version' },
      { url: 'http://a.test/c', title: 'C', text: 'charlie' },
    ]),
  ];
  await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: segs });
  await dedup(crawl.conf, { segments: segs });
  await merge(crawl.conf, { index: crawl.index, segments: segs });
  return { crawl, segs };
}

async function everyHitResolves(crawl: Crawl): Promise<void> {
  const r = await openIndex(crawl.index);
  const live = new Set(listSegments(crawl.segments));
  for (let id = 0; id < r.meta.docCount; id++) assert.ok(live.has(r.doc(id).segment), `${r.doc(id).url} points into ${r.doc(id).segment}`);
}

function io() {
  const o = { out: '', err: '' };
  return {
    o,
    io: { out: { write: (s: string) => ((o.out += s), true) } as never, err: { write: (s: string) => ((o.err += s), true) } as never, tty: false },
  };
}

test('prune cutoff options', () => {
  assert.is(pruneCutoff(undefined, '20240110').toISOString(), '2024-01-10T00:00:00.000Z');
  assert.is(pruneCutoff('30d', undefined, Date.UTC(2024, 1, 1)).toISOString(), '2024-01-02T00:00:00.000Z');
  assert.is(pruneCutoff('12h', undefined, Date.UTC(2024, 1, 1)).toISOString(), '2024-01-31T12:00:00.000Z');
  assert.throws(() => pruneCutoff(undefined, undefined), /exactly one/);
  assert.throws(() => pruneCutoff('1d', '20240101'), /exactly one/);
  assert.throws(() => pruneCutoff('soon', undefined), /-olderThan needs a duration/);
  assert.throws(() => pruneCutoff(undefined, '20240230'), /-before needs a date/);
});

test('prune refuses a segment holding the newest copy of a page, deletes the rest, re-merges', async () => {
  const { crawl, segs } = await crawlWithHistory();
  try {
    // [args, exit code, what stderr says]: a refusal of everything fails; deleting some and refusing others succeeds with warnings; a dry run exits as the real run would.
    const table: [string[], number, RegExp][] = [
      [['-before', '20240102', '-dryRun'], 1, /would refuse to delete \d{14}: it holds the newest copy of 1 page/],
      [['-before', '20240110', '-dryRun'], 0, /would refuse to delete/],
      [['-before', '20240102'], 1, /refusing to delete/],
    ];
    for (const [args, want, err] of table) {
      const { o, io: cli } = io();
      assert.is(await main(['prune', crawl.segments, ...args], cli), want, args.join(' '));
      assert.match(o.err, err);
      assert.is(listSegments(crawl.segments).length, 3, 'nothing deleted');
    }
    const { o, io: cli } = io();
    const code = await main(['prune', crawl.segments, '-before', '20240110'], cli);
    assert.is(code, 0, 'one segment deleted, one refused: success with a warning');
    assert.match(o.err, /refusing to delete \d{14}: it holds the newest copy of 1 page\(s\)/);
    assert.match(o.err, /http:\/\/a\.test\/b/);
    assert.match(o.out, /^prune: deleted 1 of 2 segments .* 0 pages dropped, 1 refused, index generation 000002\n$/);
    assert.equal(listSegments(crawl.segments), [path.basename(segs[0]!), path.basename(segs[2]!)]);
    await everyHitResolves(crawl);
    const r = await openIndex(crawl.index);
    assert.is(r.meta.docCount, 3, 'a, b and c are still searchable');
    assert.is(r.doc(r.idOf('http://a.test/a')!).segment, path.basename(segs[2]!));
    assert.equal(r.candidates(r.analyzer.terms('second'), { limit: 5 }), [], 'the superseded copy is gone');
  } finally {
    crawl.cleanup();
  }
});

test('prune -dryRun changes nothing; -force deletes and drops pages', async () => {
  const { crawl, segs } = await crawlWithHistory();
  try {
    const before = fs.readdirSync(crawl.index).sort();
    const dry = await prune(crawl.conf, { segmentsDir: crawl.segments, cutoff: day(10), dryRun: true, force: true });
    assert.equal(dry.deleted, []);
    assert.is(dry.stale.length, 2);
    assert.is(dry.pagesDropped, 1, 'b would go');
    assert.ok(dry.bytesFreed > 0);
    assert.is(listSegments(crawl.segments).length, 3);
    assert.equal(fs.readdirSync(crawl.index).sort(), before);

    const s = await prune(crawl.conf, { segmentsDir: crawl.segments, cutoff: day(10), dryRun: false, force: true });
    assert.equal(s.deleted, [path.basename(segs[0]!), path.basename(segs[1]!)]);
    assert.equal(s.refused, []);
    assert.is(s.pagesDropped, 1);
    assert.is(s.bytesFreed, dry.bytesFreed);
    assert.equal(listSegments(crawl.segments), [path.basename(segs[2]!)]);
    assert.not.ok(fs.readdirSync(crawl.segments).some((n) => n.startsWith('.deleting-')));
    await everyHitResolves(crawl);
    const r = await openIndex(crawl.index);
    assert.equal([0, 1].map((i) => r.doc(i).url).sort(), ['http://a.test/a', 'http://a.test/c']);
    assert.is(r.meta.docCount, 2);
  } finally {
    crawl.cleanup();
  }
});

test('a prune killed after deleting a segment is finished by the next: the index is merged again without it', async () => {
  const { crawl, segs } = await crawlWithHistory();
  try {
    // What a prune leaves when killed between deleting a segment and merging the rest.
    fs.rmSync(segs[0]!, { recursive: true });
    const s = await prune(crawl.conf, { segmentsDir: crawl.segments, cutoff: day(1), dryRun: false, force: false });
    assert.equal(s.stale, []);
    assert.is(s.generation, '000002', 'merged again');
    await everyHitResolves(crawl);
    const r = await openIndex(crawl.index);
    assert.is(r.idOf('http://a.test/b'), undefined, 'the deleted segment\'s only page is gone');
    assert.equal(r.meta.segments, [path.basename(segs[1]!), path.basename(segs[2]!)]);
    const again = await prune(crawl.conf, { segmentsDir: crawl.segments, cutoff: day(1), dryRun: false, force: false });
    assert.is(again.generation, undefined, 'nothing left to finish');
  } finally {
    crawl.cleanup();
  }
});

test('readindex -stats', async () => {
  const { crawl } = await crawlWithHistory();
  try {
    const { o, io: cli } = io();
    assert.is(await main(['readindex', crawl.index, '-stats'], cli), 0);
    assert.match(o.out, /documents: 3\n/);
    assert.match(o.out, /deleted documents: 0\n/);
    assert.match(o.out, /segments covered: 3 /);
    assert.match(o.out, new RegExp(`format version: ${INDEX_FORMAT_VERSION}\n`));
    assert.match(o.out, /bytes on disk: [1-9]\d* \(.*postings [1-9]\d*.*\)\n/);
    const seg = path.join(crawl.segments, listSegments(crawl.segments)[0]!);
    const { o: o2, io: cli2 } = io();
    assert.is(await main(['readindex', seg, '-stats'], cli2), 1, 'the merge folded the segment\'s own index');
    assert.match(o2.err, /folded into the crawl's merged index .*hazelnut readindex \S+index -stats/);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [seg] });
    await dedup(crawl.conf, { segments: listSegments(crawl.segments).map((n) => path.join(crawl.segments, n)) });
    const { o: o4, io: cli4 } = io();
    assert.is(await main(['readindex', seg, '-stats'], cli4), 0, 'indexed again');
    assert.match(o4.out, /documents: 2\ndeleted documents: 1\n/, 'the oldest segment: a superseded, b live');
    const { o: o3, io: cli3 } = io();
    assert.is(await main(['readindex', crawl.index], cli3), 2);
    assert.match(o3.err, /give -stats/);
  } finally {
    crawl.cleanup();
  }
});

test.run();
