/**
 * Every word of every page findable: a loopback site serves a page of
 * 40,000 words (four times Nutch's old indexer.max.tokens) and one of 5 MB,
 * each with a word that occurs once, as its last; `hazelnut crawl` with the
 * shipped settings fetches, parses and indexes them, and the real searcher
 * over HTTP returns each page for its last word. The same crawl with the old
 * cap (-D indexer.max.tokens=10000) finds neither word, so the test can fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';
import { hz, tempConf } from '../crawler/checkers/run-cli.js';

/** Words of the filler, none of them a last word: the filler holds many words, each many times. */
const FILLER = ['crawler', 'segment', 'fetch', 'parse', 'index', 'queue', 'host', 'anchor', 'link', 'score', 'summary', 'token'];

/** An HTML page of `words` filler words in paragraphs, then `last` as its last word. */
function longPage(title: string, words: number, last: string): string {
  const paras: string[] = [];
  for (let i = 0; i < words; i += 100) paras.push(`<p>${Array.from({ length: Math.min(100, words - i) }, (_, k) => FILLER[(i + k * 7) % FILLER.length]).join(' ')}</p>`);
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${paras.join('\n')}<p>The end: ${last}</p></body></html>`;
}

const MB5_WORDS = 780_000;
let web: TestWeb;
let searcher: RunningSearcher | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-long-pages-'));
const conf = tempConf();
const pages = {
  '/': '<html><head><title>Manuals</title></head><body><a href="/forty.html">Forty thousand</a> <a href="/five.html">Five megabytes</a></body></html>',
  '/forty.html': longPage('Forty thousand words', 40_000, 'zanzibar'),
  '/five.html': longPage('Five megabytes', MB5_WORDS, 'quetzalcoatl'),
};

test.before(async () => {
  web = await startTestWeb({ block: '127.0.46', hosts: { docs: { pages } } });
});

test.after(async () => {
  await searcher?.close();
  await web.stop();
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Crawls the site into `<tmp>/<name>` with the shipped settings and the properties given. */
async function crawl(name: string, props: string[]): Promise<string> {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('docs', '/')}\n`);
  const dir = path.join(tmp, name);
  const d = ['http.agent.name=hzTest', 'fetcher.server.delay=0', ...props].flatMap((p) => ['-D', p]);
  const r = await hz([...d, 'crawl', seeds, '-dir', dir, '-depth', '2'], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /documents indexed\s+3/);
  return dir;
}

async function hitsOf(dir: string, queries: string[]): Promise<string[][]> {
  searcher = await startSearcher(Conf.load(), { dir, port: 0, host: '127.0.46.200' });
  try {
    const out: string[][] = [];
    for (const q of queries) {
      const res = (await (await fetch(`${searcher.url}/api/search?query=${encodeURIComponent(q)}`)).json()) as { hits: { url: string }[] };
      out.push(res.hits.map((h) => h.url));
    }
    return out;
  } finally {
    await searcher.close();
    searcher = undefined;
  }
}

test('the pages are as long as they claim: 40,000 words, and over 5 MB', () => {
  assert.ok(Buffer.byteLength(pages['/five.html']) > 5_000_000, `${Buffer.byteLength(pages['/five.html'])} bytes`);
  assert.is(pages['/forty.html'].match(/\b[a-z]+\b/g)!.filter((w) => FILLER.includes(w)).length, 40_000);
});

test('with the shipped settings, a word that occurs once, at the end of a 40,000-word page and of a 5 MB page, returns that page', async () => {
  const dir = await crawl('whole', []);
  const [forty, five, both] = await hitsOf(dir, ['zanzibar', 'quetzalcoatl', 'crawler segment']);
  assert.equal(forty, [web.url('docs', '/forty.html')]);
  assert.equal(five, [web.url('docs', '/five.html')]);
  assert.equal(new Set(both), new Set([web.url('docs', '/forty.html'), web.url('docs', '/five.html')]), 'the filler finds both pages');
});

test('with the old cap of 10,000 terms, neither last word is found', async () => {
  const dir = await crawl('capped', ['indexer.max.tokens=10000']);
  assert.equal(await hitsOf(dir, ['zanzibar', 'quetzalcoatl']), [[], []]);
});

test.run();
