/**
 * Related words learned from the crawl: a loopback site where "damaged" and
 * "corrupt" share sentences on four pages and "corrupt" and "file" on four
 * others, among thirty pages of other word pairs. `hazelnut crawl` with
 * indexer.related.terms writes the related file beside the merged index;
 * the rule is checked on it as a table, then the real searcher over HTTP
 * answers "damaged file" with a page that never says "damaged", which
 * ranks below the damaged-only pages with searcher.related.weight=0 and
 * with the related file removed (an index merged without it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { associate, g2, unitsOf } from '../../crawler/index/associations.js';
import { Conf } from '../../shared/conf.js';
import { currentIndex } from '../../shared/index/publish.js';
import { readRelatedTerms, RELATED_FILE } from '../../shared/index/related-terms.js';
import { relatedOf } from '../../searcher/query/expansion.js';
import { startSearcher } from '../../searcher/server.js';
import { searchSettings } from '../../searcher/settings.js';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';
import { hz, tempConf } from '../crawler/checkers/run-cli.js';

const html = (title: string, text: string) => `<!doctype html><html><head><title>${title}</title></head><body><p>${text}</p></body></html>`;
/**
 * Four short pages saying "damaged" and "corrupt" in one sentence; four a
 * word longer saying "corrupt" and "file". Every page says "notes": a word
 * of every page, never associated.
 */
const DAMAGED = ['damaged disks', 'damaged tapes', 'damaged media', 'damaged drives'].map((x, i) => [`/d${i}.html`, html(`Dnote${'abcd'[i]}`, `${x} corrupt notes`)] as const);
const FILES = ['sectors', 'headers', 'indexes', 'records'].map((x, i) => [`/f${i}.html`, html(`Fnote${'abcd'[i]}`, `corrupt file ${x} notes notes`)] as const);
/** Ten pairs of words, each pair on three pages: passages that hold no query word. */
const PAIRS = ['amber lantern', 'basil meadow', 'cobalt harbor', 'dune willow', 'ember quarry', 'fennel ridge', 'garnet valley', 'hazel orchard', 'indigo canyon', 'juniper delta'];
const FILLER = PAIRS.flatMap((pair, i) => [0, 1, 2].map((k) => [`/p${i}-${k}.html`, html(`Pnote${'abcdefghij'[i]}${'xyz'[k]}`, `${pair} notes`)] as const));
const PAGES = [...DAMAGED, ...FILES, ...FILLER];

let web: TestWeb;
let crawlDir = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-related-'));
const conf = tempConf();

test.before(async () => {
  const root = `<html><head><title>Notes</title></head><body>${PAGES.map(([u], i) => `<a href="${u}">n${i}</a>`).join(' ')}</body></html>`;
  web = await startTestWeb({ block: '127.0.47', hosts: { notes: { pages: { '/': root, ...Object.fromEntries(PAGES) } } } });
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('notes', '/')}\n`);
  crawlDir = path.join(tmp, 'crawl');
  const d = ['http.agent.name=hzTest', 'fetcher.server.delay=0', 'indexer.related.terms=true'].flatMap((p) => ['-D', p]);
  const r = await hz([...d, 'crawl', seeds, '-dir', crawlDir, '-depth', '2'], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`documents indexed\\s+${PAGES.length + 1}\\b`));
});

test.after(async () => {
  await web.stop();
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('G²: positive only for pairs that meet more often than chance', () => {
  const cases: [number, number, number, number, (x: number) => boolean][] = [
    [4, 4, 8, 38, (x) => Math.abs(x - 14.5) < 0.1],
    [2, 2, 2, 1000, (x) => x > 20],
    [1, 10, 10, 100, (x) => x === 0],
    [0, 5, 5, 50, (x) => x === 0],
    [3, 6, 6, 6, (x) => x === 0],
  ];
  for (const [ab, a, b, n, ok] of cases) assert.ok(ok(g2(ab, a, b, n)), `g2(${ab}, ${a}, ${b}, ${n}) = ${g2(ab, a, b, n)}`);
});

test('associate: significant, shared twice or more, and mutual only', () => {
  // Terms 0 and 1 share four units; 2 meets 0 once; 3 is in every unit (a hub); five pairs fill units of their own.
  const units = [...Array.from({ length: 4 }, () => [0, 1, 3]), [0, 2, 3], ...[4, 6, 8, 10, 12].flatMap((t) => Array.from({ length: 5 }, () => [t, t + 1, 3]))];
  const rel = associate(unitsOf(units), 14);
  const ids = (t: number) => (rel.get(t) ?? []).map((r) => r.id);
  const cases: [number, number[]][] = [
    [0, [1]],
    [1, [0]],
    [2, []],
    [3, []],
    [4, [5]],
  ];
  for (const [t, want] of cases) assert.equal(ids(t), want, `term ${t}`);
});

test('the crawl: the related file beside the merged index holds the rule', () => {
  const index = currentIndex(crawlDir)!;
  assert.ok(fs.existsSync(path.join(index.dir, RELATED_FILE)));
  const related = readRelatedTerms(index.dir);
  const of = (t: string) => related.of(t).map((r) => r.term);
  const cases: [string, string[]][] = [
    // Stemmed terms, as the analyzer indexes them.
    ['damag', ['corrupt']],
    ['file', ['corrupt']],
    ['corrupt', ['damag', 'file']],
    ['amber', ['lantern']],
    // In more than a quarter of the pages: no association.
    ['note', []],
    // On one page only.
    ['disk', []],
  ];
  for (const [term, want] of cases) assert.equal(new Set(of(term)), new Set(want), term);
});

test('expansion: a word gains a related term only when another word of the question supports it', () => {
  const related = readRelatedTerms(currentIndex(crawlDir)!.dir);
  const cases: [string[], [string, string][]][] = [
    [['damag', 'file'], [['corrupt', 'damag']]],
    [['damag', 'amber'], []],
    [['damag'], []],
    [['damag', 'file', 'corrupt'], []],
  ];
  for (const [words, want] of cases) assert.equal([...relatedOf(words, related, new Set(words)).added], want, words.join(' '));
});

test('searcher.related.weight: 0 or more; a negative one is refused at start, naming the property', () => {
  const weight = (v: string) => searchSettings(Conf.load({ overrides: { 'searcher.related.weight': v } })).relatedWeight;
  assert.is(weight('0'), 0);
  assert.is(weight('0.3'), 0.3);
  assert.is(searchSettings(Conf.load()).relatedWeight, 0.3, 'the shipped weight');
  assert.throws(() => weight('-0.5'), /searcher\.related\.weight must be 0 or more, not -0\.5/);
});

/** The first hits for `query` from the real searcher over HTTP with `props`, and the /explain page of the first. */
async function ask(query: string, props: Record<string, string> = {}): Promise<{ urls: string[]; explain: string }> {
  const s = await startSearcher(Conf.load({ overrides: props }), { dir: crawlDir, port: 0, host: '127.0.47.200' });
  try {
    const res = (await (await fetch(`${s.url}/api/search?query=${encodeURIComponent(query)}&hitsPerSite=0`)).json()) as { hits: { url: string }[] };
    const urls = res.hits.map((h) => new URL(h.url).pathname);
    const explain = urls[0] ? await (await fetch(`${s.url}/explain?url=${encodeURIComponent(web.url('notes', urls[0]))}&query=${encodeURIComponent(query)}`)).text() : '';
    return { urls, explain };
  } finally {
    await s.close();
  }
}

test('a question finds the page that says it in other words; not with weight 0, nor from an index without the file', async () => {
  const isFile = (u: string | undefined) => /^\/f\d\.html$/.test(u ?? '');
  const on = await ask('damaged file');
  assert.ok(isFile(on.urls[0]), `first hit ${on.urls[0]} of ${on.urls.join(' ')}`);
  assert.match(on.explain, /corrupt for damag \(weight 0\.3\)/);
  const off = await ask('damaged file', { 'searcher.related.weight': '0' });
  assert.ok(!isFile(off.urls[0]), `first hit ${off.urls[0]} of ${off.urls.join(' ')}`);
  assert.not.match(off.explain, /Related terms/);
  fs.rmSync(path.join(currentIndex(crawlDir)!.dir, RELATED_FILE));
  const without = await ask('damaged file');
  assert.equal(without.urls, off.urls);
});

test.run();
