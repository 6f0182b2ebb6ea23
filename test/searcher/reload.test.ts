/**
 * Switching to a newly published index: requests in flight finish on the
 * old snapshot, which is closed only after its last lease, and a bounded
 * loopback load running through several switches sees no failed request.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import type { IndexReader } from '../../shared/index/types.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots, crawlIndexSource } from '../../searcher/snapshot.js';
import { buildCrawl, inputDoc, publishDocs, storeSegment, tempCrawlDir, type FixturePage } from './crawl-fixture.js';
import { PAGES } from './pages.js';

const HOST = '127.0.6.3';
let dir = '';

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, PAGES);
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Publishes a new generation holding the fixture pages plus `extra`. */
async function publishWith(extra: FixturePage[], second: number): Promise<string> {
  const now = new Date(Date.UTC(2024, 5, 1, 0, 0, second));
  const seg = await storeSegment(dir, extra, now);
  const first = fs.readdirSync(`${dir}/segments`).sort()[0]!;
  const docs = [...PAGES.map((p) => inputDoc(p, first, Date.UTC(2024, 4, 1, 12))), ...extra.map((p) => inputDoc(p, seg, now.getTime()))];
  return publishDocs(dir, docs);
}

test('a lease keeps its snapshot open across a switch; the old reader closes after the last release', async () => {
  const closed: string[] = [];
  const source = {
    locate: crawlIndexSource.locate,
    open: async (d: string, cacheMb: number): Promise<IndexReader> => {
      const r = await crawlIndexSource.open(d, cacheMb);
      const close = r.close.bind(r);
      r.close = () => (closed.push(d), close());
      return r;
    },
  };
  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()), source);
  try {
    const before = snaps.acquire();
    const oldVersion = before.snapshot.version;
    assert.is(await snaps.refresh(), false, 'nothing new yet');
    const gen = await publishWith([{ url: 'http://new.test/one', title: 'Fresh page', text: 'a zebracrawler appears' }], 1);
    assert.is(await snaps.refresh(), true);
    const after = snaps.acquire();
    assert.is(after.snapshot.version, gen);
    assert.is.not(after.snapshot.version, oldVersion);
    assert.equal(closed, [], 'old reader still leased');
    assert.is(before.snapshot.reader.doc(0).url, PAGES[0]!.url, 'the old snapshot still answers');
    assert.is(after.snapshot.reader.idOf('http://new.test/one') !== undefined, true);
    before.release();
    assert.is(closed.length, 1);
    after.release();
  } finally {
    snaps.close();
  }
});

test('reloading the index while a bounded load runs fails no request', async () => {
  const conf = Conf.load({ overrides: { 'searcher.index.poll.interval': '100ms' } });
  const s: RunningSearcher = await startSearcher(conf, { dir, port: 0, host: HOST });
  try {
    const first = s.snapshots.current.version;
    const load = autocannon({
      url: `${s.url}/api/search?query=crawler`,
      connections: 8,
      duration: 3,
      amount: 20_000,
      timeout: 5,
    });
    const generations: string[] = [];
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 400));
      generations.push(await publishWith([{ url: `http://new.test/p${i}`, title: `Page ${i}`, text: `crawler number ${i}` }], 10 + i));
    }
    const result = await load;
    assert.ok(result.requests.total > 50, `requests: ${result.requests.total}`);
    assert.is(result.errors, 0, 'connection errors');
    assert.is(result.timeouts, 0, 'timeouts');
    assert.is(result.non2xx, 0, 'non-2xx responses');
    // The poller has switched to the newest generation, and answers from it.
    const end = Date.now() + 5000;
    while (s.snapshots.current.version !== generations.at(-1) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.is.not(s.snapshots.current.version, first);
    assert.is(s.snapshots.current.version, generations.at(-1));
    const r = (await (await fetch(`${s.url}/api/search?query=${encodeURIComponent('"crawler number 3"')}`)).json()) as { hits: { url: string }[] };
    assert.equal(r.hits.map((h) => h.url), ['http://new.test/p3']);
  } finally {
    await s.close();
  }
});

test.run();
