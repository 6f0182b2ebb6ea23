/**
 * Replicas of a shard behind the broker: which replica a call goes to first
 * (a table of cases), and calls made again on another replica when one is
 * down, against real HTTP servers on loopback: one that refuses (stopped),
 * one that answers 500, one that answers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShardDown } from '../../searcher/broker/client.js';
import { pickReplica, ReplicaSet } from '../../searcher/broker/replicas.js';

const NOW = 1_000_000;

test('pickReplica: the next in turn, passing over replicas that failed lately, any when all did', () => {
  const never = -Infinity;
  const cases: [number, number[], number][] = [
    [0, [never, never], 0],
    [1, [never, never], 1],
    [2, [never, never], 0],
    [0, [NOW - 100, never], 1],
    [1, [never, NOW - 100], 0],
    [0, [NOW - 5000, never], 0],
    [1, [NOW - 100, NOW - 100, never], 2],
    [0, [NOW - 100, NOW - 50], 0],
  ];
  for (const [next, failed, want] of cases) assert.is(pickReplica(next, failed, NOW, 2000), want, `${next} ${JSON.stringify(failed)}`);
});

/** A server on 127.0.97.<last> answering every request with `status` and its own name; counts requests. */
async function replica(last: number, status: number): Promise<{ spec: string; hits: () => number; stop: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ from: last }));
  });
  await new Promise<void>((r) => server.listen(0, `127.0.97.${last}`, r));
  const { port } = server.address() as AddressInfo;
  return { spec: `127.0.97.${last}:${port}`, hits: () => hits, stop: () => new Promise((r) => server.close(() => r())) };
}

test('a call goes on to another replica when one refuses or fails; the shard is down only when every replica is', async () => {
  const good = await replica(1, 200);
  const failing = await replica(2, 500);
  const gone = await replica(3, 200);
  await gone.stop();
  try {
    const set = new ReplicaSet([gone.spec, failing.spec, good.spec], 2000);
    assert.is(set.name, `${gone.spec}|${failing.spec}|${good.spec}`);
    for (let i = 0; i < 6; i++) assert.equal(await set.json('/shard/stats'), { from: 1 });
    // The failing replica was asked once, then passed over while the good one answers.
    assert.is(failing.hits(), 1);
    assert.is(good.hits(), 6);
    const down = new ReplicaSet([gone.spec, failing.spec], 2000);
    const e = await down.json('/shard/stats').then(
      () => undefined,
      (x: Error) => x,
    );
    assert.ok(e instanceof ShardDown);
    assert.match(e!.message, new RegExp(`^no replica answered \\(${gone.spec}: connection refused; ${failing.spec}: answered HTTP 500\\)$`));
  } finally {
    await good.stop();
    await failing.stop();
  }
});

test.run();
