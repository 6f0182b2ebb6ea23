/**
 * The crawl's phases after the fetch, replayed on the segments of a crawl
 * already made, to measure their CPU apart from the fetch and the index:
 * `tsx test/bench/replay-phases.ts <crawl dir> <seeds> <work dir>` injects the
 * seeds into a fresh WebDB in the work dir, applies each segment with
 * updatedb as the one-shot crawl does (-normalize -filter), then runs
 * invertlinks, linkrank, dedup and merge, holding a second connection on the
 * WebDB as the crawl does, and prints one JSON line: CPU and wall ms per
 * phase and an md5 of the pages, links and inlinks tables and of the merged
 * index's files (its creation time left out), to check that code under
 * measurement gives the same results. Run it from each of two checkouts,
 * alternating, to compare them. The segments' indexes get their `deleted`
 * files rewritten by dedup, as in the crawl; nothing else in the crawl
 * directory is touched.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { crawlConf, scopeToSeedHosts } from '../../crawler/crawl.js';
import { dedup } from '../../crawler/dedup.js';
import { inject, readSeeds } from '../../crawler/inject.js';
import { invertlinks } from '../../crawler/invertlinks.js';
import { linkrank } from '../../crawler/linkrank.js';
import { merge } from '../../crawler/merge.js';
import '../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../crawler/plugin/chains.js';
import { updatedb } from '../../crawler/updatedb/tool.js';
import { PACKAGE_CONF_DIR } from '../../shared/conf.js';
import { currentIndex } from '../../shared/index/publish.js';
import { segmentIndexDir } from '../../shared/crawl-dir.js';

const [crawlDir, seedsFile, work] = process.argv.slice(2);
if (!crawlDir || !seedsFile || !work) throw new Error('usage: tsx test/bench/replay-phases.ts <crawl dir> <seeds> <work dir>');
/** Fixed, so the page rows updatedb writes are the same from run to run. */
const NOW = 1_800_000_000_000;

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const webdb = path.join(work, 'webdb');
const index = path.join(work, 'index');
const seeds = readSeeds(seedsFile);
const conf = scopeToSeedHosts(crawlConf(PACKAGE_CONF_DIR, { 'http.agent.name': 'HzBench', 'fetcher.server.delay': '0' }), seeds);
const plugins = await loadCrawlerPlugins(conf);
const segDir = path.join(crawlDir, 'segments');
const segments = fs
  .readdirSync(segDir)
  .sort()
  .map((n) => path.join(segDir, n));

const out: Record<string, unknown> = {};
async function timed(phase: string, fn: () => Promise<unknown>): Promise<void> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  out[phase] = { cpu: Math.round((c.user + c.system) / 1000), wall: Math.round(performance.now() - t0) };
}

await timed('inject', () => inject(conf, { webdb, seeds, plugins }));
const held = new Database(path.join(webdb, 'webdb.sqlite'));
await timed('updatedb', async () => {
  for (const s of segments) await updatedb(conf, { webdb, segments: [s], normalize: true, filter: true, plugins, now: NOW });
});
await timed('invertlinks', () => invertlinks(conf, { webdb, segments, normalize: true, filter: true, plugins }));
await timed('linkrank', () => linkrank(conf, { webdb }));
const indexed = segments.filter((d) => fs.existsSync(segmentIndexDir(d)));
await timed('dedup', () => dedup(conf, { segments: indexed }));
await timed('merge', () => merge(conf, { index, segments: indexed }));
held.close();

const db = new Database(path.join(webdb, 'webdb.sqlite'), { readonly: true });
const digest = (sql: string) => {
  const h = crypto.createHash('md5');
  for (const r of db.prepare(sql).raw().iterate()) h.update(JSON.stringify(r));
  return h.digest('hex');
};
out.pages = digest('SELECT * FROM pages ORDER BY url');
out.links = digest('SELECT target, source, anchor, nav FROM links ORDER BY target, nav, seq');
out.inlinks = digest('SELECT target, source, anchor FROM inlinks ORDER BY target, seq');
db.close();
const generation = currentIndex(index)!.dir;
const h = crypto.createHash('md5');
for (const name of fs.readdirSync(generation).sort()) {
  const bytes = fs.readFileSync(path.join(generation, name));
  h.update(name);
  // meta holds its creation time, and a checksum over it in its header.
  h.update(name === 'meta' ? bytes.subarray(bytes.indexOf('{"version"')).toString('utf8').replace(/"createdAt":\d+/, '') : bytes);
}
out.index = h.digest('hex');
console.log(JSON.stringify(out));
