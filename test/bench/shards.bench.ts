/**
 * The broker over 1, 2 and 4 shards beside one plain searcher, in the same
 * run, over the same crawl: synthetic documents (the search bench's Zipf
 * vocabulary, 200 sites) in one segment with its segment index, merged once
 * into one index and with `merge -shards n` for each n (kept in
 * .bench-shards-<docs>-v<format>/). Every searcher is its own process on
 * loopback, one configuration running at a time; autocannon cycles through
 * the same queries against `/api/search` of each.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { merge, mergeShards } from '../../crawler/merge.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { INDEX_FORMAT_VERSION } from '../../shared/index/format.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { segmentIndexDir, shardIndexDir } from '../../shared/crawl-dir.js';
import { Segment } from '../../segments/segment.js';
import { startSearcher } from '../fixtures/searcher-process.js';
import { inputDoc } from '../searcher/crawl-fixture.js';
import { cannon, wholeMs as ms, type CannonResult } from './cannon.js';
import { rng, vocabulary, zipf } from './search.bench.js';

const DOCS = 20_000;
const SHARDS = [1, 2, 4];
const HOST = '127.0.11.7';
const dir = path.resolve(import.meta.dirname, '..', '..', `.bench-shards-${DOCS}-v${INDEX_FORMAT_VERSION}`);

/** One segment of synthetic pages with its segment index, then the merged index and the shard indexes. */
async function build(words: string[], pick: () => number, rand: () => number): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  const text = (n: number) => Array.from({ length: n }, () => words[pick()]).join(' ');
  const now = new Date(Date.UTC(2024, 0, 1));
  const seg = Segment.create(path.join(dir, 'segments'), now);
  const segDir = path.join(dir, 'segments', seg.name);
  const pages = Array.from({ length: DOCS }, (_, i) => ({ url: `http://site${i % 200}.test/page/${i}`, title: text(3 + Math.floor(rand() * 6)), text: text(100 + Math.floor(rand() * 100)), boost: rand() * 3 }));
  seg.putParses(pages.map((p) => ({ url: p.url, status: 'success', title: p.title, text: p.text, outlinks: [], meta: {} })) as Parameters<Segment['putParses']>[0]);
  seg.markPhase('parsed');
  seg.close();
  const writer = new IndexWriter({ analyzer: Analyzer.fromConf(Conf.load()), segments: [seg.name] });
  for (const p of pages) writer.add(inputDoc(p, seg.name, now.getTime()));
  await writer.write(segmentIndexDir(segDir));
  const conf = Conf.load();
  await merge(conf, { index: path.join(dir, 'index'), segments: [segDir] });
  for (const n of SHARDS) await mergeShards(conf, { index: path.join(dir, `shards-${n}`), segments: [segDir] }, n);
}

async function measure(start: () => Promise<{ procs: ChildProcess[]; base: string }>, paths: string[]): Promise<CannonResult> {
  const { procs, base } = await start();
  try {
    // One pass first: every process loads its index and stored fields before the clock runs.
    for (const p of paths.slice(0, 60)) await (await fetch(base + p)).arrayBuffer();
    return await cannon(base, paths);
  } finally {
    for (const p of procs) {
      p.kill('SIGTERM');
      if (p.exitCode === null) await new Promise((r) => p.once('exit', r));
    }
  }
}

export default async function bench() {
  const rand = rng(42);
  const words = vocabulary(20_000, rand);
  const pick = zipf(words.length, rand);
  const t0 = Date.now();
  const built = SHARDS.every((n) => fs.existsSync(path.join(shardIndexDir(path.join(dir, `shards-${n}`), n - 1), 'CURRENT')));
  if (!built) await build(words, pick, rand);
  const buildS = (Date.now() - t0) / 1000;

  const qr = rng(7);
  const queries = Array.from({ length: 300 }, () => Array.from({ length: 1 + Math.floor(qr() * 3) }, () => words[100 + Math.floor(qr() * 4900)]).join(' '));
  const paths = queries.map((q) => `/api/search?query=${encodeURIComponent(q)}`);
  const load = os.loadavg()[0]!;

  const single = await measure(async () => {
    const s = await startSearcher(['-dir', dir, '-host', HOST, '-port', '0', '-workers', '1'], dir);
    return { procs: [s.proc], base: s.base };
  }, paths);
  const brokers: [number, CannonResult][] = [];
  for (const n of SHARDS) {
    brokers.push([
      n,
      await measure(async () => {
        const shards = await Promise.all(
          Array.from({ length: n }, (_, i) => startSearcher(['-dir', dir, '-index', shardIndexDir(path.join(dir, `shards-${n}`), i), '-shard', '-host', HOST, '-port', '0', '-workers', '1'], dir)),
        );
        const b = await startSearcher(['-shards', shards.map((s) => new URL(s.base).host).join(','), '-host', HOST, '-port', '0', '-workers', '1'], dir);
        return { procs: [b.proc, ...shards.map((s) => s.proc)], base: b.base };
      }, paths),
    ]);
  }
  const row = (what: string, r: CannonResult) => `| ${what} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.rps.toFixed(0)} | ${(r.rps / single.rps).toFixed(2)} | ${r.errors} |`;
  return {
    title: `Search over shards: ${DOCS.toLocaleString('en')} documents`,
    markdown: `One crawl of ${DOCS.toLocaleString('en')} synthetic documents (${built ? 'reused' : `built and merged in ${buildS.toFixed(0)} s`}), merged into one index and with \`merge -shards n\`; 300 queries of 1–3 words.
Every searcher, shard and broker is its own process on ${HOST}; autocannon (16 connections, 6 s) runs in the bench process, after one warm-up pass of 60 queries. All of them share the machine's ${os.cpus().length} cores, so more shards mean more processes on the same cores, not more hardware. Load average at the start: ${load.toFixed(1)} (the machine was shared with other work).

| \`/api/search\` of | p50 ms | p99 ms | req/s | vs one searcher | errors |
|---|---|---|---|---|---|
${row('one searcher (no broker)', single)}
${brokers.map(([n, r]) => row(`broker over ${n} shard${n > 1 ? 's' : ''}`, r)).join('\n')}

A query through the broker costs each shard one call (its matches with the bonuses of its best and the summaries of those that can reach the page; statistics are asked once per index generation, a word's frequencies once per word and generation), so on one machine the broker adds work rather than sharing it: the gain is on machines of their own.

Command: \`npm run bench -- shards\`.`,
  };
}
