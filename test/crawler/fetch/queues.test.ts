/** The politeness queues with a hand-moved clock: per-queue limits, rests, Crawl-delay, round robin, purge. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FetchQueues } from '../../../crawler/fetch/queues.js';

function setup(maxPerQueue: number, delayMs = 100, minDelayMs = 10) {
  const clock = { t: 1000 };
  const q = new FetchQueues<string>({ maxPerQueue, delayMs, minDelayMs, now: () => clock.t });
  return { q, clock };
}
const item = (r: ReturnType<FetchQueues<string>['take']>) => (typeof r === 'object' && 'item' in r ? r.item : r);

test('one at a time per host, rest after each answer, hosts in turn', () => {
  const { q, clock } = setup(1);
  for (const u of ['a1', 'a2']) q.add('a', u);
  for (const u of ['b1', 'b2']) q.add('b', u);
  assert.is(item(q.take()), 'a1');
  assert.is(item(q.take()), 'b1');
  assert.equal(q.take(), { waitMs: Infinity }, 'both busy');
  q.finish('a');
  assert.equal(q.take(), { waitMs: 100 }, 'a rests for fetcher.server.delay');
  clock.t += 100;
  assert.is(item(q.take()), 'a2');
  q.finish('b', { asap: true });
  assert.is(item(q.take()), 'b2', 'asap: no rest after a request that was never made');
  q.finish('a');
  q.finish('b');
  assert.is(q.take(), 'done');
});

test('several per host use the min delay; a Crawl-delay makes the host one at a time and raises its rest', () => {
  const { q, clock } = setup(2);
  for (const u of ['a1', 'a2', 'a3', 'a4']) q.add('a', u);
  assert.is(item(q.take()), 'a1');
  assert.is(item(q.take()), 'a2');
  assert.equal(q.take(), { waitMs: Infinity });
  q.finish('a');
  assert.equal(q.take(), { waitMs: 10 });
  q.setCrawlDelay('a', 500);
  assert.is(q.delayOf('a'), 500);
  clock.t += 10;
  q.finish('a');
  clock.t += 499;
  assert.equal(q.take(), { waitMs: 1 });
  clock.t += 1;
  assert.is(item(q.take()), 'a3');
  assert.equal(q.take(), { waitMs: Infinity }, 'one at a time under a Crawl-delay');
});

test('a Crawl-delay below fetcher.server.delay does not lower it', () => {
  const { q } = setup(1, 300);
  q.add('a', 'x');
  q.setCrawlDelay('a', 50);
  assert.is(q.delayOf('a'), 300);
});

test('purge, size and next() ending', async () => {
  const { q } = setup(1);
  q.add('a', 'a1');
  q.add('a', 'a2');
  q.add('b', 'b1');
  assert.is(q.size(), 3);
  assert.equal(q.purge('a').map((l) => l.item), ['a1', 'a2']);
  assert.equal(q.waitingKeys(), ['b']);
  const l = await q.next();
  assert.is(l?.item, 'b1');
  const pending = q.next();
  q.finish('b');
  assert.is(await pending, undefined);
  q.add('c', 'c1');
  q.close();
  assert.is(await q.next(), undefined, 'close() ends waiting workers');
});

test('bad options name the property', () => {
  assert.throws(() => new FetchQueues({ maxPerQueue: 0, delayMs: 0, minDelayMs: 0 }), /fetcher\.threads\.per\.host/);
  assert.throws(() => new FetchQueues({ maxPerQueue: 1, delayMs: -1, minDelayMs: 0 }), /fetcher\.server\.delay/);
});

test.run();
