/**
 * Counting a query's matches from its terms' postings (shared/index/match-counts)
 * against counting them the plain way, over random lists: documents holding
 * every term and only some, by tag value, with deletions and terms the index
 * lacks, one count array shared by every pass (each must leave it cleared).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COUNTED_TAGS, countMatches, HeldCounts, type CountedTag } from '../../../shared/index/match-counts.js';
import type { TermBlocks } from '../../../shared/index/types.js';
import { rng } from '../../fixtures/rng.js';

/** A term's documents in blocks of `size`, held in arrays. */
function blocksOf(docs: number[], size: number): TermBlocks {
  const n = Math.ceil(docs.length / size);
  const part = (b: number) => docs.slice(b * size, (b + 1) * size);
  const last = Uint32Array.from({ length: n }, (_, b) => part(b).at(-1)!);
  return { count: docs.length, blocks: n, last, maxTf: [], minLength: [], maxBoost: new Float64Array(n), decode: (b, out) => (out.docs.set(part(b)), part(b).length) };
}

/** Each tag's value of a document: a few values, so most are shared. */
const VALUES: Record<CountedTag, string[]> = { site: ['a', 'b', 'c', 'd'], type: ['text/html', 'text/plain'], lang: ['en', 'de', 'fr'] };

test('counts: every term and only some, by tag value, as counting each document plainly gives them; the shared array cleared after each pass', () => {
  const rnd = rng(5);
  const docCount = 700;
  const held = new HeldCounts(docCount);
  const columns = Object.fromEntries(COUNTED_TAGS.map((t) => [t, { ids: Uint32Array.from({ length: docCount }, () => Math.floor(rnd() * VALUES[t].length)), values: VALUES[t] }]));
  for (let round = 0; round < 200; round++) {
    const lists = Array.from({ length: Math.floor(rnd() * 4) }, () => {
      const density = rnd() ** 2;
      return Array.from({ length: docCount }, (_, d) => d).filter(() => rnd() < density);
    });
    // A term the index lacks has no list: no document holds every term.
    const terms = lists.length + (round % 5 === 0 ? 1 : 0);
    const deleted = new Set(round % 3 ? [] : Array.from({ length: 40 }, () => Math.floor(rnd() * docCount)));
    const got = countMatches(lists.map((l) => blocksOf(l, 1 + Math.floor(rnd() * 128))), terms, docCount, (t) => columns[t]!, deleted, held);
    const holding = new Map<number, number>();
    for (const l of lists) for (const d of l) if (!deleted.has(d)) holding.set(d, (holding.get(d) ?? 0) + 1);
    const want = { full: 0, some: 0, tags: {} as Record<string, { full: number[]; some: number[] }> };
    for (const t of COUNTED_TAGS) want.tags[t] = { full: VALUES[t].map(() => 0), some: VALUES[t].map(() => 0) };
    for (const [d, n] of holding) {
      const kind = n === terms ? 'full' : 'some';
      want[kind]++;
      for (const t of COUNTED_TAGS) want.tags[t]![kind][columns[t]!.ids[d]!]!++;
    }
    assert.equal([got.full, got.some], [want.full, want.some], `round ${round}`);
    for (const t of COUNTED_TAGS) assert.equal({ full: [...got.tags[t].full], some: [...got.tags[t].some] }, want.tags[t], `round ${round}, ${t}`);
    assert.ok(held.take().every((n) => n === 0), `round ${round}: the shared counts are cleared`);
  }
});

test.run();
