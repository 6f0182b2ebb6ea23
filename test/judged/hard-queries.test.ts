import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { duplicateGroups, scoreSet } from '../bench/ranking/score.js';
import { judgedPages, pageUrl } from './corpus.js';
import { HARD_QUERIES } from './hard-queries.js';
import { JUDGED_QUERIES } from './queries.js';

test('hard set: 25–40 new queries, each answer a page of the corpus', () => {
  assert.ok(HARD_QUERIES.length >= 25 && HARD_QUERIES.length <= 40, `${HARD_QUERIES.length} queries`);
  const texts = HARD_QUERIES.map((q) => q.q.toLowerCase());
  assert.is(new Set(texts).size, texts.length, 'no query twice');
  const judged = new Set(JUDGED_QUERIES.map((q) => q.q.toLowerCase()));
  assert.equal(texts.filter((t) => judged.has(t)), [], 'none repeats queries.ts');
  const urls = new Set(judgedPages().map((p) => pageUrl(p)));
  for (const q of HARD_QUERIES) {
    assert.ok(q.relevant.length > 0, q.q);
    for (const r of q.relevant) assert.ok(urls.has(pageUrl(r)), `${q.q}: ${pageUrl(r)} exists`);
  }
});

test('duplicate groups hold the print views of a page and nothing else', () => {
  const groups = duplicateGroups((h) => `http://${h}.x`);
  assert.equal([...groups.get('http://docs.x/install-linux')!].sort(), ['http://docs.x/install-linux', 'http://docs.x/print/install-linux']);
  assert.equal(groups.get('http://docs.x/install-windows'), ['http://docs.x/install-windows']);
  assert.equal(groups.get('http://docs.x/archive/configure-inputs-2021'), ['http://docs.x/archive/configure-inputs-2021']);
});

test('scoreSet: MRR@10, P@1 and recall@10, a print view counts as its page, misses say what came first', async () => {
  const base = (h: string) => `http://${h}.x`;
  const queries = [
    { q: 'a', kind: 'keyword' as const, relevant: [{ host: 'docs' as const, path: '/install-linux' }] },
    { q: 'b', kind: 'keyword' as const, relevant: [{ host: 'docs' as const, path: '/tls' }, { host: 'docs' as const, path: '/metrics' }] },
    { q: 'c', kind: 'keyword' as const, relevant: [{ host: 'wiki' as const, path: '/vpn-setup' }] },
  ];
  const answers: Record<string, string[]> = {
    a: ['http://docs.x/print/install-linux'],
    b: ['http://docs.x/', 'http://docs.x/metrics'],
    c: Array.from({ length: 10 }, (_, i) => `http://news.x/${i}`).concat('http://wiki.x/vpn-setup'),
  };
  const s = await scoreSet(async (q) => answers[q]!, 'kw', queries, base, duplicateGroups(base));
  assert.is(s.n, 3);
  assert.equal(s.rr, [1, 0.5, 0]);
  assert.is(s.mrr, 0.5);
  assert.is(s.p1, 1 / 3);
  assert.is(s.recall, (1 + 0.5 + 0) / 3);
  assert.equal(s.misses, [
    { q: 'b', set: 'kw', rank: 2, first: 'http://docs.x/' },
    { q: 'c', set: 'kw', rank: 0, first: 'http://news.x/0' },
  ]);
});

test.run();
