import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { CandidateIndex, type Tags } from '../../../shared/index/candidates.js';
import { CandidatePostings, slotOf } from '../../../shared/index/candidates-file.js';
import { IndexFileWriter, readIndexFile } from '../../../shared/index/format.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-cands-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const analyzer = new Analyzer();

/** Documents with repeated, shared and unique terms, some without text or a language, some longer than the slots. */
function docs(n: number): { terms: string[]; tags: Tags }[] {
  let s = 7;
  const r = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, (_, i) => ({
    terms: i % 9 === 4 ? [] : Array.from({ length: Math.floor(r() * 40) }, () => `t${Math.floor(r() ** 2 * 300)}${i % 50 === 0 ? 'ü' : ''}`),
    tags: { host: `h${i % 3}`, site: 's', type: i % 4 ? 'text/html' : 'text/plain', lang: i % 5 ? 'en' : '' },
  }));
}

function written(list: ReturnType<typeof docs>, limits?: { batchPostings: number; chunkMap: number }): Buffer {
  const dir = fs.mkdtempSync(path.join(tmp, 'w-'));
  const ids = new Map<string, number>();
  const words: string[] = [];
  const p = new CandidatePostings(dir, limits);
  list.forEach((d, id) => {
    const text = d.terms.map((t) => ids.get(t) ?? (ids.set(t, words.length), words.push(t) - 1));
    p.add(id, text, words, d.tags);
  });
  const w = new IndexFileWriter(dir, 'candidates');
  p.write(w, words);
  w.close();
  return readIndexFile(dir, 'candidates');
}

function flexsearch(list: ReturnType<typeof docs>): CandidateIndex {
  const c = new CandidateIndex(analyzer);
  list.forEach((d, id) => c.add(id, d.terms, d.tags));
  return c;
}

test('slotOf: the first terms take a slot each, a long text is spread over the nine', () => {
  const cases: [number, number, number][] = [
    [1, 0, 0],
    [5, 4, 4],
    [9, 8, 8],
    [10, 1, 1],
    [10, 9, 8],
    [100, 50, 5],
    [100, 99, 8],
  ];
  for (const [n, i, slot] of cases) assert.is(slotOf(n, i), slot, `${i} of ${n}`);
});

test('candidate file: the bytes of flexsearch\'s own export', async () => {
  for (const n of [0, 1, 2, 300]) {
    const list = docs(n);
    assert.ok(written(list).equals(await flexsearch(list).export()), `${n} documents`);
  }
});

test('candidate file: spilled in many small runs, still the bytes of flexsearch\'s own export', async () => {
  // Batches end inside the documents' run of postings and between them; each run's values are rebuilt from the documents' ends.
  for (const batchPostings of [1, 7, 97]) {
    const list = docs(300);
    assert.ok(written(list, { batchPostings, chunkMap: 5000 }).equals(await flexsearch(list).export()), `batches of ${batchPostings}`);
  }
});

test('candidate file: spilled in several runs and parts, it imports to the same answers', async () => {
  const list = docs(400);
  const payload = written(list, { batchPostings: 97, chunkMap: 0.05 });
  const parts = JSON.parse(payload.toString('utf8')) as [string, string][];
  assert.ok(parts.filter(([k]) => k.endsWith('.map')).length > 3, 'several map parts');
  const got = CandidateIndex.import(analyzer, payload);
  const want = flexsearch(list);
  const queries: [string[], Partial<Tags>][] = [
    [['t1'], {}],
    [['t0', 't3'], {}],
    [['t2', 't5', 't7'], {}],
    [['t4'], { host: 'h1' }],
    [['t1', 't2'], { type: 'text/plain' }],
    [[], { lang: 'en', host: 'h2' }],
    [['t299ü'], {}],
  ];
  for (const [terms, tags] of queries) assert.equal(got.search(terms, 50, tags), want.search(terms, 50, tags), `${terms.join(' ')} ${JSON.stringify(tags)}`);
});

test.run();
