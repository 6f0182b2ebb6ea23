/**
 * Host dictionaries as a searcher's summaries meet them: the pages of two
 * segments (each with a dictionary of its own a host) and 140 hosts, 280
 * dictionaries, more than the 128 once kept, read in turn and again. Each
 * dictionary is inflated once (segments/packing's cache of them, bounded
 * by bytes), and every page reads as it was put.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dictionaryInflations } from '../../segments/packing.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { fetchedRecord } from '../fixtures/fetch-record.js';

const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => ((i + 1) * (seed + 3) * 2654435761).toString(36).slice(-6)).join(' ');
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

test('the pages of two segments and 140 hosts read in turn, twice: each host dictionary inflated once', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-host-dictionaries-'));
  const segs: Segment[] = [];
  try {
    for (let s = 0; s < 2; s++) segs.push(await writeSegment(root, s));
    const before = dictionaryInflations.count;
    for (let round = 0; round < 2; round++)
      for (let p = 0; p < PAGES; p++)
        for (let h = 0; h < HOSTS; h++)
          for (let s = 0; s < 2; s++) assert.is(segs[s]!.getParse(url(h, p))?.text, text(s, h, p), `${url(h, p)} of segment ${s}`);
    assert.is(dictionaryInflations.count - before, 2 * HOSTS, 'each host dictionary of each segment inflated once');
  } finally {
    for (const seg of segs) seg.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
