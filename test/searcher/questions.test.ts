/**
 * Ranking for plain-English questions, whose answer page seldom holds every
 * word: searches over small real indexes where each rule decides the first
 * hit, with the shipped defaults.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { explainHtml } from '../../searcher/explain.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots, type Snapshot } from '../../searcher/snapshot.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';

const filler = (i: number) => Array.from({ length: 8 }, (_, k) => `section ${i}.${k} describes the options of the tool in detail with examples and notes`).join('. ');

/** `use` applied to a snapshot of a crawl of `pages`, with the shipped settings or some overridden. */
async function withSnapshot<T>(pages: FixturePage[], overrides: Record<string, string>, use: (snap: Snapshot) => T): Promise<T> {
  const dir = tempCrawlDir();
  try {
    await buildCrawl(dir, pages);
    const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load({ overrides })));
    try {
      return use(snaps.current);
    } finally {
      snaps.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The URLs of the first hits of `query` over `pages`, with the shipped settings or some overridden. */
const topUrls = (pages: FixturePage[], query: string, overrides: Record<string, string> = {}, n = 3) =>
  withSnapshot(pages, overrides, (snap) => search(snap, { query, hitsPerPage: n, hitsPerSite: 0 }).hits.map((h) => h.doc.url));

test('a page with the rare words but not every word outranks many pages with every common one', async () => {
  // Twelve long pages mention copying, keeping and removing files in passing; one is about removing files, and never says "copy".
  const pages: FixturePage[] = Array.from({ length: 12 }, (_, i) => ({
    url: `http://docs.test/tool-${i}`,
    title: `Tool ${i}`,
    text: `${filler(i)}. copy the file to a new place, keep it, and remove the old file when done. ${filler(i + 1)}.`,
  }));
  pages.push({ url: 'http://docs.test/rm', title: 'rm: remove files', text: 'remove files from the index. remove a file but keep it in the working tree with --cached; remove recursively with -r.' });
  assert.is((await topUrls(pages, 'remove a file but keep my copy'))[0], 'http://docs.test/rm');
  assert.not.ok((await topUrls(pages, 'remove a file but keep my copy', { 'searcher.partial.below': '10' }, 10)).includes('http://docs.test/rm'), 'with partial matches only below 10 full ones it is not even listed');
  // /explain says why a page without every word is a hit, or is not one under strict AND.
  const explain = (overrides: Record<string, string>) => withSnapshot(pages, overrides, (snap) => explainHtml(snap, snap.reader.doc(snap.reader.idOf('http://docs.test/rm')!), 'remove a file but keep my copy'));
  assert.match(await explain({}), /holds only some of the query words: it is ranked among the pages holding all of them when fewer than 1000 of those do/);
  assert.match(await explain({ 'searcher.partial.below': '0' }), /does not match the whole query \(it would not be shown as a hit\)/);
});

test('a compound word meets the words of a question: read a file line by line finds the readline module (analysis.decompound)', async () => {
  const pages: FixturePage[] = [
    { url: 'http://docs.test/readline', title: 'Readline', text: 'The readline module is an interface for taking input from a stream, such as a file or the terminal, one record at a time.' },
    { url: 'http://docs.test/fs', title: 'File system', text: `${filler(1)}. Read a file with readFile; each line of the file ends with a newline. ${filler(2)}.` },
    { url: 'http://docs.test/modules', title: 'Modules', text: `${filler(3)}. A module is read from a file; the first line may be a shebang line. ${filler(4)}.` },
  ];
  assert.is((await topUrls(pages, 'read a file line by line'))[0], 'http://docs.test/readline');
});

test.run();
