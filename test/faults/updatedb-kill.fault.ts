/**
 * updatedb killed in the middle of a large segment: the real CLI applies a
 * segment of 20,000 pages (800,000 links: enough that its transaction
 * outgrows updatedb's 16 MB page cache even with links stored as URL ids)
 * and gets SIGKILL once the transaction has begun spilling pages into the
 * WebDB's WAL, that is while it writes. The WebDB must then hold nothing of the segment, and a rerun
 * must leave it as an uninterrupted run does.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { webDbFile } from '../../shared/crawl-dir.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { webDbSql } from '../fixtures/webdb-sql.js';

const BIN = path.resolve('crawler/hazelnut.js');
const N = 20_000;
const LINKS = 40;
const NOW = Date.UTC(2024, 0, 10);
const url = (i: number) => `http://127.0.13.${1 + (i % 4)}/p/${i % N}`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-updatedb-kill-'));

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A fetched and parsed segment whose pages link only among themselves, so every row depends on the segment alone. */
async function bigSegment(): Promise<string> {
  const seg = Segment.create(path.join(tmp, 'segments'), new Date(NOW));
  seg.addFetchlist(Array.from({ length: N }, (_, i) => ({ url: url(i), host: new URL(url(i)).host, score: 1, datum: { fetch_interval: 2592000, retries: 0 } })));
  const writer = new SegmentWriter(seg);
  for (let i = 0; i < N; i++)
    writer.put(
      { url: url(i), status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: NOW, headers: {} },
      { url: url(i), contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<p>x</p>'), truncated: false },
      {
        url: url(i),
        status: 'success',
        title: `page ${i}`,
        text: `page ${i}`,
        lang: 'en',
        signature: `sig-${i}`,
        outlinks: Array.from({ length: LINKS }, (_, k) => ({ url: url(i + 1 + k * 97), anchor: `link ${k}` })),
        meta: {},
      },
    );
  await writer.close();
  for (const ph of ['generated', 'fetched', 'parsed'] as const) seg.markPhase(ph);
  const dir = seg.dir;
  seg.close();
  return dir;
}

function state(webdb: string) {
  const db = webDbSql(webdb, { readonly: true });
  try {
    return {
      pages: db.prepare('SELECT url, status, fetch_time, score, signature FROM pages ORDER BY url').all(),
      links: (db.prepare('SELECT COUNT(*) AS n FROM links').get() as { n: number }).n,
      applied: db.prepare('SELECT tool, segment FROM applied').all(),
    };
  } finally {
    db.close();
  }
}

/** Runs updatedb; with `killAtWal`, kills it once the WebDB's WAL holds that many bytes. Resolves with how it ended. */
function updatedb(webdb: string, seg: string, opts: { killAtWal?: number; force?: boolean } = {}): Promise<{ code: number | null; killed: boolean; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'updatedb', webdb, seg, ...(opts.force ? ['-force'] : [])], { env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let killed = false;
    const wal = `${webDbFile(webdb)}-wal`;
    const poll =
      opts.killAtWal === undefined
        ? undefined
        : setInterval(() => {
            if (fs.existsSync(wal) && fs.statSync(wal).size >= opts.killAtWal!) {
              killed = child.kill('SIGKILL');
              clearInterval(poll);
            }
          }, 10);
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, killed, out });
    });
  });
}

test('updatedb killed while writing a large segment: nothing of it visible, and the rerun applies all of it', async () => {
  const seg = await bigSegment();
  const [killed, whole] = [path.join(tmp, 'killed'), path.join(tmp, 'whole')];
  webDbSql(killed).close();
  webDbSql(whole).close();
  const before = state(killed);
  const k = await updatedb(killed, seg, { killAtWal: 4 << 20 });
  assert.ok(k.killed && k.code === null, `updatedb was killed while writing: ${k.code} ${k.out}`);
  assert.equal(state(killed), before, 'nothing of the half-applied segment is visible');
  // -force takes over the killed run's stale lock.
  const rerun = await updatedb(killed, seg, { force: true });
  assert.is(rerun.code, 0, rerun.out);
  const done = await updatedb(whole, seg);
  assert.is(done.code, 0, done.out);
  const after = state(killed);
  assert.is(after.pages.length, N);
  assert.is(after.links, N * LINKS);
  assert.equal(after, state(whole), 'the rerun ends as an uninterrupted run');
});

test.run();
