/**
 * "Did you mean" over a real crawl: each case a query a reader typed, the
 * pages that make up the vocabulary around it (a more frequent wrong
 * neighbour beside the right one, so the frequency alone would mislead),
 * served on loopback and crawled (test/searcher/spell-web), and the
 * correction a reader expects, written as the pages write it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots, type Snapshot } from '../../searcher/snapshot.js';
import { didYouMean } from '../../searcher/suggest.js';
import { crawlSpellWeb, type SpellWeb } from './spell-web.js';

const CASES: [typed: string, expected: string][] = [
  ['asynco', 'asyncio'], // a letter left out, not one typed for nothing (async is commoner)
  ['windw functions', 'window functions'], // written as the pages about window functions write it, not Windows
  ['replcation slot', 'replication slot'], // one edit from a real word, not a stem two edits away (replaced)
  ['jsonfy', 'jsonify'], // the surface form, not the commoner json
  ['temlpate inheritence', 'template inheritance'], // every word: the misspelt one the index knows by its stem too
  ['theefore', 'therefore'], // a query with no hits gets its frequent one-edit neighbour
  ['template inheritence', 'template inheritance'], // a misspelling the stemmer forgives still gets the pages' spelling
];

let web: SpellWeb;
let snaps: CrawlSnapshots;
let lease: { snapshot: Snapshot; release: () => void };

test.before(async () => {
  web = await crawlSpellWeb('127.0.27');
  snaps = await CrawlSnapshots.open(web.dir, searchSettings(Conf.load()));
  lease = snaps.acquire();
});

test.after(async () => {
  lease?.release();
  await snaps?.close();
  await web?.stop();
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
  for (const q of ['window functions', 'asyncio', 'template inheritance', 'jsonify', 'replication slots']) assert.is(didYouMean(snap, search(snap, { query: q })), undefined, q);
});

test.run();
