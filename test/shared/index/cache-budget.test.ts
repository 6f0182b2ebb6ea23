import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { cacheBudget, DEFAULT_CACHE_MB } from '../../../shared/index/cache-budget.js';
import { openIndex } from '../../../shared/index/reader.js';
import { FIELDS } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-cache-budget-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('cache budget: split between the caches, all of them within it', () => {
  for (const mb of [1, 8, 32, 100, 0.5]) {
    const b = cacheBudget(mb);
    const total = b.pages + b.postings + b.decoded + b.units + b.stored + b.counts;
    assert.ok(total <= mb * 2 ** 20 && total > 0.99 * mb * 2 ** 20, `${mb} MB: ${total} bytes in all`);
    for (const [k, v] of Object.entries(b)) assert.ok(v > 0, `${mb} MB: ${k}`);
  }
  assert.equal(cacheBudget(), cacheBudget(DEFAULT_CACHE_MB));
  const words: [number, number][] = [[32, 16_384], [64, 32_768], [8, 4096], [1, 1024], [0.5, 1024]];
  for (const [mb, want] of words) assert.is(cacheBudget(mb).words, want, `${mb} MB: words remembered`);
  for (const bad of [0, -1, NaN]) assert.throws(() => cacheBudget(bad), /more than 0 MB/);
});

test('cache budget: a reader in a budget far smaller than its index answers as one in a large budget', async () => {
  const dir = path.join(tmp, 'idx');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  const word = (i: number) => `w${(i * 7919) % 3001}`;
  for (let d = 0; d < 3000; d++) {
    const content = Array.from({ length: 60 }, (_, k) => word(d * 61 + k * k)).join(' ');
    w.add({ url: `http://h${d % 17}.test/p${d}`, title: `page ${word(d)} common`, content: `common ${content}`, host: `h${d % 17}.test`, site: `h${d % 17}.test`, domain: 'test', type: 'text/html', lang: 'en', date: '20240101', tstamp: 1_700_000_000_000, digest: `d${d}`, boost: 1 + (d % 5), segment: '20240101000000', contentLength: content.length, anchors: [] });
  }
  await w.write(dir);
  const small = await openIndex(dir, { cacheMb: 0.03 });
  const large = await openIndex(dir, { cacheMb: 64 });
  try {
    assert.ok(small.cacheBudget.pages < 4 * 4096 && large.cacheBudget.pages > 1000 * 4096);
    const terms = ['common', 'page', word(5), word(77), word(1234)];
    // Twice over, so the second pass meets what the first pushed out of the small one.
    for (let pass = 0; pass < 2; pass++)
      for (const t of terms) {
        const id = small.termId(t);
        assert.ok(id >= 0, t);
        assert.equal(small.postings(id), large.postings(id), `${t}: postings, pass ${pass}`);
        assert.equal(small.postingTfs(id), large.postingTfs(id), `${t}: frequencies, pass ${pass}`);
        assert.equal(small.candidates([t], { limit: 50 }), large.candidates([t], { limit: 50 }), `${t}: candidates, pass ${pass}`);
        for (let d = pass; d < 3000; d += 97) {
          assert.equal(small.doc(d), large.doc(d), `document ${d}`);
          assert.equal(small.positions(d, t), large.positions(d, t), `${t} in ${d}`);
          for (const f of FIELDS) assert.is(small.fieldLength(d, f), large.fieldLength(d, f));
        }
      }
  } finally {
    small.close();
    large.close();
  }
});

test.run();
