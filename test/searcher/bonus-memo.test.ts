/**
 * A search of plain words whose first pool cannot decide its page takes a
 * deeper one (searcher/counted); the proximity and section bonuses of the
 * pages both pools rank are worked out once, not once a pool: each of the
 * proximity block's pages once, whatever the pools; so are their base
 * scores. The pages shown are the exhaustive ranking's.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { bonusMemo } from '../../searcher/ranking.js';
import { PROXIMITY_DEPTH, search, SECTION_DEPTH, type SearchResult } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { rng } from '../fixtures/rng.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';

const WORDS = 'socket stream buffer kernel network mount volume backup'.split(' ');

/**
 * 2,400 short pages on four sites, each holding "socket stream": the fourth
 * site's pages hold them once in long text, with no link score, so its best
 * page ranks below a first pool (8 × the proximity block) and the facet
 * naming it needs a deeper one.
 */
function corpus(): FixturePage[] {
  const rnd = rng(20261205);
  const word = () => WORDS[2 + Math.floor((WORDS.length - 2) * rnd())]!;
  return Array.from({ length: 2400 }, (_, i) => {
    const low = i % 4 === 3;
    const filler = Array.from({ length: low ? 300 : 8 + Math.floor(rnd() * 30) }, word);
    return {
      url: `http://s${i % 4}.bonus.test/p${i}.html`,
      title: low ? word() : `socket ${word()}`,
      text: (low ? ['socket', 'stream', ...filler] : ['socket', ...filler.slice(0, 4), 'stream', 'socket stream', ...filler]).join(' '),
      boost: low ? 0 : 1 + rnd(),
    };
  });
}

const shown = (r: SearchResult) => ({
  hits: r.hits.map((h) => [h.doc.url, h.score, h.full, h.grouped, h.moreFromSite]),
  total: r.total,
  hidden: r.hidden,
  facets: r.facets.site.map((v) => [v.value, v.count, v.sample.url]),
});

let dir = '';
test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, corpus());
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a deeper pool works out no bonus the first worked out: each page of the proximity block once', async () => {
  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
  try {
    for (const query of ['socket stream', 'stream socket', 'socket']) {
      const bonuses = bonusMemo();
      const r = search(snaps.current, { query }, { bonuses });
      assert.equal(shown(r), shown(search(snaps.current, { query }, { exhaustive: true })), query);
      assert.is(r.facets.site.length, 4, `${query}: every site has its facet`);
      assert.ok(r.total > 8 * PROXIMITY_DEPTH, `${query}: more matches (${r.total}) than a first pool`);
      assert.ok(bonuses.computed > 0, `${query}: bonuses worked out`);
      assert.ok(bonuses.computed <= PROXIMITY_DEPTH + SECTION_DEPTH, `${query}: ${bonuses.computed} bonuses worked out for a proximity block of ${PROXIMITY_DEPTH}`);
      // The deeper pool holds the first one's pages: each page's base score is worked out once.
      assert.ok(bonuses.scored > 8 * PROXIMITY_DEPTH, `${query}: ${bonuses.scored} pages scored, a first pool's and more`);
      assert.is(bonuses.scored, bonuses.base.size, `${query}: a page scored twice`);
    }
  } finally {
    snaps.close();
  }
});

test.run();
