/**
 * How a remote fetcher's partition reaches the crawl machine with no shared
 * file system, the two ways measured in the same run on one fetched
 * partition (a generated web, crawl-web.ts, fetched with -numFetchers 2):
 * the partition's SQLite file shipped whole, gzipped, as one row of the
 * WebDB on PostgreSQL and unpacked (what fetch/shipping.ts does), against
 * every row of the file written to PostgreSQL as its own compressed record
 * (v8-serialized, gzipped, in batches of 500, as a fetcher would while it
 * fetches) and materialised by the crawl machine into a new SQLite file.
 * Also the cost of the WebDB's synchronous interface: one-row reads through
 * the worker-thread client (Atomics.wait) against the same reads by an
 * asynchronous `pg` client in this thread, one at a time and 8 at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import pg from 'pg';
import { crawlConf } from '../../crawler/crawl.js';
import { shipPartition, unpackPartition } from '../../crawler/fetch/shipping.js';
import { fetch } from '../../crawler/fetch/tool.js';
import { generate } from '../../crawler/generate.js';
import { inject } from '../../crawler/inject.js';
import { openWebDb } from '../../crawler/webdb/webdb.js';
import { PACKAGE_CONF_DIR } from '../../shared/conf.js';
import { segmentFile, segmentPartDir } from '../../shared/crawl-dir.js';
import { startPostgres } from '../cluster/postgres.js';
import { child } from './crawl-process.js';
import { pagePath } from './crawl-web.js';

const HOSTS = 4;
const PAGES = 300;
const BATCH = 500;
const READS = 2000;

const ms = (t0: number) => performance.now() - t0;

/** Every row of the part file to PostgreSQL as a compressed record, then back into a new SQLite file; bytes stored. */
async function viaRecords(file: string, url: string, out: string): Promise<number> {
  const src = new Database(file, { readonly: true });
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  let stored = 0;
  try {
    await c.query('CREATE TABLE IF NOT EXISTS fetched_records (seq bigserial, tbl text, rec bytea)');
    const tables = src.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
    for (const t of tables) {
      let batch: Buffer[] = [];
      const send = async () => {
        if (!batch.length) return;
        stored += batch.reduce((n, b) => n + b.length, 0);
        await c.query('INSERT INTO fetched_records (tbl, rec) SELECT $1, unnest($2::bytea[])', [t.name, batch]);
        batch = [];
      };
      for (const row of src.prepare(`SELECT * FROM "${t.name}"`).iterate()) {
        batch.push(gzipSync(v8.serialize(row), { level: 6 }));
        if (batch.length === BATCH) await send();
      }
      await send();
    }
    // The crawl machine: the records, read back, into a segment file of its own.
    const dst = new Database(out);
    dst.pragma('journal_mode = WAL');
    for (const t of tables) dst.exec(t.sql);
    for (const t of tables) {
      const rows = (await c.query<{ rec: Buffer }>('SELECT rec FROM fetched_records WHERE tbl = $1 ORDER BY seq', [t.name])).rows;
      dst.transaction(() => {
        for (const r of rows) {
          const row = v8.deserialize(gunzipSync(r.rec)) as Record<string, unknown>;
          const cols = Object.keys(row);
          dst.prepare(`INSERT OR REPLACE INTO "${t.name}" (${cols.map((k) => `"${k}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((k) => row[k]));
        }
      })();
    }
    dst.close();
  } finally {
    src.close();
    await c.end();
  }
  return stored;
}

export default async function bench(): Promise<{ title: string; markdown: string }> {
  const web = child<{ origins: string[] }>('crawl-web.ts', { block: '127.0.44', hosts: HOSTS, pages: PAGES }, { keep: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-ship-'));
  const load = os.loadavg()[0]!;
  const server = await startPostgres();
  try {
    const { origins } = await web.result;
    const seeds = path.join(tmp, 'seeds.txt');
    fs.writeFileSync(seeds, origins.flatMap((o) => Array.from({ length: PAGES }, (_, p) => `${o}${pagePath(p)}`)).join('\n') + '\n');
    const conf = crawlConf(PACKAGE_CONF_DIR, { 'http.agent.name': 'HzBench', 'fetcher.server.delay': '0', 'fetcher.threads.per.host': '1', 'crawl.sitemaps': 'false' });
    const webdbDir = path.join(tmp, 'crawl', 'webdb');
    await inject(conf, { webdb: webdbDir, seeds });
    const g = await generate(conf, webdbDir, path.join(tmp, 'crawl', 'segments'), { numFetchers: 2 });
    const seg = g.segments[0]!;
    process.stderr.write(`  fetching ${HOSTS * PAGES} pages in 2 partitions …\n`);
    const t0 = performance.now();
    await fetch(conf, seg, { threads: HOSTS });
    const fetchMs = ms(t0);
    const file = segmentFile(segmentPartDir(seg, 0));
    const pages = (new Database(file, { readonly: true }).prepare('SELECT COUNT(*) AS n FROM fetch').get() as { n: number }).n;
    const rawBytes = fs.statSync(file).size;

    const url = await server.createDatabase('ship');
    const db = openWebDb(url, { create: true });
    const rounds = 3;
    const whole: number[] = [];
    const records: number[] = [];
    let shipped = 0;
    let recordBytes = 0;
    try {
      for (let r = 0; r < rounds; r++) {
        const t1 = performance.now();
        shipped = shipPartition(db, seg, 0, 'fetched').shipped;
        unpackPartition(db, path.join(tmp, `machine-${r}`, path.basename(seg)), 0, 'fetched');
        whole.push(ms(t1));
        const t2 = performance.now();
        recordBytes = await viaRecords(file, url, path.join(tmp, `records-${r}.sqlite`));
        records.push(ms(t2));
      }
      // The synchronous interface's cost per call, against asynchronous calls.
      db.inject([{ url: 'http://a.test/', host: 'a.test', score: 1, interval: 60, meta: null }], 0, false);
      const t3 = performance.now();
      for (let i = 0; i < READS; i++) db.page('http://a.test/');
      const syncMs = ms(t3);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const q = () => c.query('SELECT url, score FROM pages WHERE url = $1', ['http://a.test/']);
      const t4 = performance.now();
      for (let i = 0; i < READS; i++) await q();
      const asyncMs = ms(t4);
      const t5 = performance.now();
      for (let i = 0; i < READS; i += 8) await Promise.all(Array.from({ length: 8 }, q));
      const async8Ms = ms(t5);
      await c.end();
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const w = median(whole);
      const rr = median(records);
      const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
      return {
        title: 'Remote fetchers: a partition shipped whole or as records; the synchronous WebDB interface',
        markdown: [
          `One partition of a ${HOSTS}-host × ${PAGES}-page generated web fetched with \`-numFetchers 2\` (${pages} pages, its SQLite file ${kb(rawBytes)}; fetching both partitions took ${(fetchMs / 1000).toFixed(1)} s), PostgreSQL 15 on loopback, median of ${rounds} rounds, both ways in the same run. Load average (1 min) ${load.toFixed(1)} at the start on ${os.cpus().length} cores.`,
          '',
          '| way to the crawl machine | stored in PostgreSQL | time (ship + put in place) | × whole file |',
          '|---|---|---|---|',
          `| the partition's file shipped whole, gzipped, one row (fetch/shipping.ts) | ${kb(shipped)} | ${w.toFixed(0)} ms | 1.00× |`,
          `| every row its own gzipped record, batches of ${BATCH}, materialised into a new file | ${kb(recordBytes)} | ${rr.toFixed(0)} ms | ${(rr / w).toFixed(2)}× |`,
          '',
          `The WebDB's synchronous interface: ${READS} one-row reads (\`page(url)\`) through the worker-thread client took ${syncMs.toFixed(0)} ms (${((syncMs * 1000) / READS).toFixed(0)} µs each); the same reads by an asynchronous \`pg\` client in the calling thread ${asyncMs.toFixed(0)} ms one at a time (${(syncMs / asyncMs).toFixed(2)}× of it for the synchronous one), ${async8Ms.toFixed(0)} ms 8 at a time on one connection (pipelined).`,
          '',
          'Command: `npm run bench -- shipping`.',
        ].join('\n'),
      };
    } finally {
      db.close();
    }
  } finally {
    web.stop();
    server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
