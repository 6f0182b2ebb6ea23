/**
 * What the indexer reads of a page (Segment.getParseTextAndSize): its parse
 * text, stored against its body, the body against its host's dictionary,
 * and its content size, read in one lookup, the host dictionaries looked up
 * by id and kept for the pages to come. Over two real segments read in
 * turn (each holds a dictionary of its own a host, under the same ids),
 * with more hosts than the dictionaries kept. Read as a searcher's
 * summaries read them (the stored dictionary's bytes each time), each host
 * dictionary of each segment is inflated once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dictionaryInflations } from '../../segments/packing.js';
import { Segment } from '../../segments/segment.js';
import { fetchedRecord } from '../fixtures/fetch-record.js';
import { SegmentWriter } from '../../segments/segment-writer.js';


const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => ((i + 1) * (seed + 7) * 2654435761).toString(36).slice(-6)).join(' ');
/** More hosts than the reader keeps dictionaries for (128). */
const HOSTS = 140;
const PAGES = 2;
/** Page `p` of host `h` in segment `s`: its host's template (another in each segment) around words of its own. */
const text = (s: number, h: number, p: number) => `${words(s * 1000 + h, 60)} ${words(100_000 + s * 10_000 + h * 10 + p, 40)}`;
const body = (s: number, h: number, p: number) => Buffer.from(`<html><nav>${words(s * 1000 + h, 60)}</nav><main>${text(s, h, p)}</main></html>`);
const url = (h: number, p: number) => `http://h${h}.test/p${p}`;

async function writeSegment(dir: string, s: number): Promise<Segment> {
  const seg = Segment.create(dir, new Date(Date.UTC(2026, 0, 1 + s)));
  const w = new SegmentWriter(seg);
  for (let p = 0; p < PAGES; p++)
    for (let h = 0; h < HOSTS; h++) {
      await w.ready();
      const u = url(h, p);
      w.put(fetchedRecord(u), { url: u, contentType: 'text/html', charset: 'utf-8', bytes: body(s, h, p), truncated: false }, { url: u, status: 'success', title: `h${h}`, text: text(s, h, p), outlinks: [], meta: {} });
    }
  await w.close();
  return seg;
}

test('parse text and content size, pages of two segments and more hosts than dictionaries kept read in turn: each as put', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-parse-text-read-'));
  const segs: Segment[] = [];
  try {
    for (let s = 0; s < 2; s++) segs.push(await writeSegment(root, s));
    for (const seg of segs) {
      const raw = new Database(seg.file, { readonly: true });
      const stored = raw.prepare('SELECT data FROM content').pluck().all() as Buffer[];
      raw.close();
      assert.ok(stored.every((d) => !(d[0]! & 1) && (d[1]! & 0x20) !== 0), 'every body deflated against its host dictionary');
    }
    for (let round = 0; round < 2; round++)
      for (let p = 0; p < PAGES; p++)
        for (let h = 0; h < HOSTS; h++)
          for (let s = 0; s < 2; s++) {
            const read = segs[s]!.getParseTextAndSize(url(h, p));
            assert.is(read?.parse.text, text(s, h, p), `${url(h, p)} of segment ${s}`);
            assert.is(read!.contentSize, body(s, h, p).length);
            const { outlinks: _, ...parse } = segs[s]!.getParse(url(h, p))!;
            assert.equal(read!.parse, parse, 'the record getParse reads, its outlinks left out');
          }
    assert.is(segs[0]!.getParseTextAndSize('http://h0.test/none'), undefined);
  } finally {
    for (const seg of segs) seg.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the pages of two segments and more hosts than dictionaries once kept, read in turn twice with their stored dictionaries: each host dictionary inflated once', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-host-dictionaries-'));
  const segs: Segment[] = [];
  try {
    // Segments 2 and 3: their hosts' templates, so their dictionaries, are not the first test's.
    for (let s = 2; s < 4; s++) segs.push(await writeSegment(root, s));
    const before = dictionaryInflations.count;
    for (let round = 0; round < 2; round++)
      for (let p = 0; p < PAGES; p++)
        for (let h = 0; h < HOSTS; h++)
          for (let s = 0; s < 2; s++) assert.is(segs[s]!.getParse(url(h, p))?.text, text(s + 2, h, p), `${url(h, p)} of segment ${s + 2}`);
    assert.is(dictionaryInflations.count - before, 2 * HOSTS, 'each host dictionary of each segment inflated once');
  } finally {
    for (const seg of segs) seg.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
