/**
 * The docinfo's tag columns as a searcher holds them: each document's value
 * ids in the narrowest array that holds every tag's values, read back, used
 * by filters and counted by facets the same whatever the width.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { idArray } from '../../../shared/index/docinfo.js';
import { openIndex } from '../../../shared/index/reader.js';
import type { IndexInputDoc } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-docinfo-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('tag ids: bytes up to 256 values, 16 bits up to 65,536, 32 past', () => {
  for (const [values, want] of [
    [1, Uint8Array],
    [256, Uint8Array],
    [257, Uint16Array],
    [65_536, Uint16Array],
    [65_537, Uint32Array],
    [5_000_000, Uint32Array],
  ] as const)
    assert.is(idArray(values), want, `${values} values`);
});

/** `n` pages, page i on host `h{i % hosts}`; every page has the word alpha, every third beta. */
function pages(n: number, hosts: number): IndexInputDoc[] {
  return Array.from({ length: n }, (_, i) => {
    const host = `h${i % hosts}.test`;
    const content = i % 3 ? 'alpha gamma' : 'alpha beta';
    return {
      url: `http://${host}/p${i}`, title: `page ${i}`, content, host, site: host, domain: host,
      type: i % 2 ? 'text/html' : 'text/plain', lang: 'en', date: '20240101', tstamp: 1, digest: `d${i}`,
      boost: 1, segment: '20240101000000', contentLength: content.length, anchors: [], headings: [],
    };
  });
}

for (const hosts of [3, 300]) {
  test(`tags of ${hosts} hosts: each page's values, filters and facet counts as the pages have them`, async () => {
    const dir = path.join(tmp, `h${hosts}`);
    const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
    const all = pages(900, hosts);
    for (const d of all) w.add(d);
    await w.write(dir);
    const r = await openIndex(dir);
    try {
      all.forEach((p, id) => {
        assert.is(r.tag(id, 'host'), p.host);
        assert.is(r.tag(id, 'type'), p.type);
      });
      const alpha = r.analyzer.term('alpha')!;
      const beta = r.analyzer.term('beta')!;
      const site = `h${hosts - 1}.test`;
      assert.equal(r.candidates([alpha], { limit: 1000, tags: { site } }).sort((a, b) => a - b), all.flatMap((p, i) => (p.site === site ? [i] : [])));
      const counts = r.countMatches([alpha, beta]);
      assert.is(counts.full, 300);
      const sites = counts.tags.site;
      const full = (s: string) => sites.full[sites.values.indexOf(s)];
      assert.is(full(site), all.filter((p, i) => p.site === site && i % 3 === 0).length);
      assert.is(full('h0.test'), all.filter((p, i) => p.site === 'h0.test' && i % 3 === 0).length);
    } finally {
      r.close();
    }
  });
}

test.run();
