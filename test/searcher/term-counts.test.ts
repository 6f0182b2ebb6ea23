/**
 * Kept counts of one-word searches (searcher/term-counts) against scoring
 * every match: a common word's page, asked again, decodes no posting and
 * shows what the first count showed and what the exhaustive ranking shows,
 * at a first page, without grouping, and deeper than the matches kept (so
 * counted again); a budget that keeps two counts answers the same. Searches
 * of several common words, their partial matches not joining, too; and a
 * common word whose synonyms no page holds, kept as the word alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { KEPT_DEPTH } from '../../searcher/term-counts.js';
import { rng } from '../fixtures/rng.js';
import { shown } from './result-shown.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';

const WORDS = 'socket stream buffer kernel network mount volume backup restore query cache memory'.split(' ');

/** 3,000 short pages on four sites: the first words are on most of them, the last on few. */
function corpus(): FixturePage[] {
  const rnd = rng(20261204);
  const word = () => WORDS[Math.floor(WORDS.length * rnd() ** 2)]!;
  return Array.from({ length: 3000 }, (_, i) => ({
    url: `http://s${i % 4}.counts.test/p${i}.html`,
    title: `${word()} ${word()}`,
    text: Array.from({ length: 8 + Math.floor(rnd() * 40) }, word).join(' '),
    boost: rnd(),
  }));
}

let dir = '';
test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, corpus());
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const PAGES = [{}, { hitsPerSite: 0 }, { start: 10 }, { start: KEPT_DEPTH, hitsPerSite: 0 }, { start: 2 * KEPT_DEPTH, hitsPerPage: 50 }];

test('a common word\'s count, kept, shows what its first count and scoring every match show, without a posting decoded', async () => {
  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
  try {
    const snap = snaps.current;
    let kept = 0;
    for (const query of WORDS)
      for (const page of PAGES) {
        const req = { query, ...page };
        const first = search(snap, req);
        const blocks = { decoded: 0, skipped: 0 };
        const again = search(snap, req, { blocks });
        const exhaustive = search(snap, req, { exhaustive: true });
        assert.equal(shown(first), shown(exhaustive), JSON.stringify(req));
        assert.equal(shown(again), shown(exhaustive), `${JSON.stringify(req)}: asked again`);
        const deep = (page.start ?? 0) + 10 >= KEPT_DEPTH / 8;
        if (first.total >= 2048 && !deep) {
          assert.is(blocks.decoded, 0, `${JSON.stringify(req)}: kept, nothing decoded`);
          kept++;
        }
        if (first.total < 2048) assert.ok(blocks.decoded > 0, `${JSON.stringify(req)}: a rare word counted again`);
      }
    assert.ok(kept >= 6, `only ${kept} pages of a kept count`);
  } finally {
    snaps.close();
  }
});

test('several common words: a pool taken from the pages holding all of them alone shows what scoring every match shows', async () => {
  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
  try {
    let apart = 0;
    for (let i = 0; i + 2 < WORDS.length; i++)
      for (const query of [`${WORDS[i]} ${WORDS[i + 1]}`, `${WORDS[i]} ${WORDS[i + 2]} ${WORDS[0]}`])
        for (const page of PAGES) {
          const req = { query, ...page };
          const exhaustive = search(snaps.current, req, { exhaustive: true });
          assert.equal(shown(search(snaps.current, req)), shown(exhaustive), JSON.stringify(req));
          if (exhaustive.partial === 0 && exhaustive.total >= KEPT_DEPTH) apart++;
        }
    assert.ok(apart > 20, `only ${apart} result pages of more full matches than a first pool`);
  } finally {
    snaps.close();
  }
});

test('a common word whose synonyms no page holds is counted as the word alone: kept, nothing decoded asked again', async () => {
  const synonyms = path.join(dir, 'synonyms.txt');
  fs.writeFileSync(synonyms, 'socket, zzsocketsyn\nstream, zzstreamsyn, buffer\n');
  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load({ overrides: { 'searcher.synonyms.file': synonyms } })));
  try {
    const snap = snaps.current;
    for (const [query, keptAgain] of [['socket', true], ['stream', false]] as const) {
      const first = search(snap, { query });
      assert.ok(first.query.required[0]!.length > 1 && first.total >= 2048, `${query}: a common word with a synonym`);
      const blocks = { decoded: 0, skipped: 0 };
      const again = search(snap, { query }, { blocks });
      assert.equal(shown(again), shown(search(snap, { query }, { exhaustive: true })), query);
      // A synonym the index holds (buffer) is counted with the word, each time.
      assert.is(blocks.decoded === 0, keptAgain, `${query}: ${blocks.decoded} blocks decoded asked again`);
    }
  } finally {
    snaps.close();
  }
});

test('a budget that keeps two counts answers as a large one, counts pushed out and kept again', async () => {
  const small = Conf.load();
  small.set('searcher.cache.mb', '1');
  const opened = [await CrawlSnapshots.open(dir, searchSettings(small)), await CrawlSnapshots.open(dir, searchSettings(Conf.load()))];
  try {
    for (let pass = 0; pass < 2; pass++)
      for (const query of WORDS)
        for (const page of PAGES.slice(0, 3)) {
          const req = { query, ...page };
          assert.equal(shown(search(opened[0]!.current, req)), shown(search(opened[1]!.current, req)), `${JSON.stringify(req)}, pass ${pass}`);
        }
  } finally {
    for (const s of opened) s.close();
  }
});

test.run();
