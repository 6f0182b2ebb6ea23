/**
 * "Did you mean" over a real index: each case a query a reader typed, the
 * pages that make up the vocabulary around it (a more frequent wrong
 * neighbour beside the right one, so the frequency alone would mislead),
 * and the correction a reader expects, written as the pages write it.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots, type Snapshot } from '../../searcher/snapshot.js';
import { didYouMean } from '../../searcher/suggest.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';

/** `n` pages of a site saying `text`. */
const pages = (site: string, n: number, title: string, text: string): FixturePage[] =>
  Array.from({ length: n }, (_, i) => ({ url: `http://${site}/${title.toLowerCase().replace(/\W+/g, '-')}-${i}.html`, title: `${title} ${i}`, text }));

const PAGES: FixturePage[] = [
  ...pages('127.0.6.60', 6, 'Async views', 'An async view runs in the event loop; async functions await other async calls.'),
  ...pages('127.0.6.60', 2, 'Asyncio support', 'Flask runs coroutines with asyncio; the asyncio event loop is created per request.'),
  ...pages('127.0.6.61', 6, 'Installing on Windows', 'On Windows the installer registers the service; Windows paths use backslashes.'),
  ...pages('127.0.6.61', 2, 'Window functions', 'A window function computes over a window of rows; window functions need an OVER clause.'),
  ...pages('127.0.6.62', 6, 'Upgrading', 'The old format was replaced; configuration files are replaced by the new ones.'),
  ...pages('127.0.6.62', 2, 'Replication slots', 'A replication slot keeps WAL for a standby; replication slots survive restarts.'),
  ...pages('127.0.6.63', 6, 'JSON responses', 'Return json from a view; the json module encodes the json body.'),
  ...pages('127.0.6.63', 2, 'jsonify', 'Use jsonify to return JSON with the right mimetype; jsonify serializes the arguments.'),
  ...pages('127.0.6.64', 3, 'Templating', 'Templating with Jinja: templating engines render variables.'),
  ...pages('127.0.6.64', 2, 'Template inheritance', 'Template inheritance lets a child template extend a base template; inheritance keeps the layout in one place.'),
  ...pages('127.0.6.65', 8, 'Design notes', 'The loader is lazy; therefore the first request is slower, and therefore warm-up helps.'),
];

const CASES: [typed: string, expected: string][] = [
  ['asynco', 'asyncio'], // a letter left out, not one typed for nothing (async is commoner)
  ['windw functions', 'window functions'], // written as the pages about window functions write it, not Windows
  ['replcation slot', 'replication slot'], // one edit from a real word, not a stem two edits away (replaced)
  ['jsonfy', 'jsonify'], // the surface form, not the commoner json
  ['temlpate inheritence', 'template inheritance'], // every word: the misspelt one the index knows by its stem too
  ['theefore', 'therefore'], // a query with no hits gets its frequent one-edit neighbour
];

let dir: string;
let snaps: CrawlSnapshots;
let lease: { snapshot: Snapshot; release: () => void };

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, PAGES);
  snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
  lease = snaps.acquire();
});

test.after(async () => {
  lease.release();
  await snaps.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

for (const [typed, expected] of CASES)
  test(`did you mean: ${typed} → ${expected}`, () => {
    const snap = lease.snapshot;
    const s = didYouMean(snap, search(snap, { query: typed }));
    assert.is(s?.query, expected);
    assert.ok(search(snap, { query: expected }).hits.length > 0, 'the correction finds pages');
  });

test('did you mean: nothing for words the pages write', () => {
  const snap = lease.snapshot;
  for (const q of ['window functions', 'asyncio', 'template inheritance']) assert.is(didYouMean(snap, search(snap, { query: q })), undefined, q);
});

test.run();
