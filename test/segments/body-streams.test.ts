/**
 * The writer threads' kept deflate streams (segments/dictionary-deflate.js in
 * segments/writer-worker.js) over real segments: hosts in turn, fewer than a
 * connection keeps streams for and then more, on two threads, in many
 * batches, then a second segment on the same threads once the first is
 * closed; every body reads back as it was put and is stored against its
 * host's dictionary, each segment holding one dictionary a host.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment } from '../../segments/segment.js';
import { fetchedRecord } from '../fixtures/fetch-record.js';
import { SegmentWriter, WriterThreads } from '../../segments/segment-writer.js';


const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => ((i + 1) * (seed + 7) * 2654435761).toString(36).slice(-6)).join(' ');
/** Page `p` of host `h`: its host's template around words of its own. */
const page = (h: number, p: number) => Buffer.from(`<html><nav>${words(h, 400)}</nav><main>${words(h * 1000 + p, 200 + p * 50)}</main></html>`);
/** More hosts than a connection keeps deflate streams for (24). */
const HOSTS = 30;
const PAGES = 4;

/** Writes hosts' pages into a new segment of `segmentsDir`, host after host in turn, through `threads`, then reads them back. */
async function writeAndRead(segmentsDir: string, threads: WriterThreads, round: number): Promise<void> {
  const seg = Segment.create(segmentsDir);
  const w = new SegmentWriter(seg, threads);
  const put = new Map<string, Buffer>();
  // Fewer hosts in turn than kept streams (each stream reset and used again), then all of them (each evicting another).
  const inTurn = (hosts: number, from: number) => Array.from({ length: PAGES * hosts }, (_, i): [number, number] => [i % hosts, from + Math.floor(i / hosts)]);
  for (const [h, p] of [...inTurn(20, 0), ...inTurn(HOSTS, PAGES)]) {
    await w.ready();
    const url = `http://h${h}.test/r${round}/p${p}`;
    const bytes = page(h, round * 2 * PAGES + p);
    put.set(url, bytes);
    w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(bytes), truncated: false });
    if (h % 7 === 0) await new Promise((r) => setImmediate(r)); // many batches, to both threads
  }
  await w.close();
  try {
    for (const [url, bytes] of put) assert.ok(seg.getContent(url)!.bytes.equals(bytes), url);
    const raw = new Database(seg.file, { readonly: true });
    try {
      const stored = raw.prepare('SELECT data FROM content').pluck().all() as Buffer[];
      assert.is(stored.length, put.size);
      assert.ok(
        stored.every((d) => !(d[0]! & 1) && (d[1]! & 0x20) !== 0),
        'every body deflated against a dictionary',
      );
      assert.is(raw.prepare('SELECT COUNT(DISTINCT host) FROM dictionary').pluck().get(), HOSTS);
      assert.is(raw.prepare('SELECT COUNT(*) FROM dictionary').pluck().get(), HOSTS);
    } finally {
      raw.close();
    }
  } finally {
    seg.close();
  }
}

test('two threads, more hosts than kept streams, two segments in turn: every body back as it was put', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-body-streams-'));
  const threads = new WriterThreads({ threads: 2 });
  try {
    for (let round = 0; round < 2; round++) await writeAndRead(root, threads, round);
  } finally {
    await threads.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
