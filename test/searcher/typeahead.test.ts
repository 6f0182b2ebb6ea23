/**
 * Type-ahead over HTTP on a crawled web (test/searcher/spell-web): titles
 * and headings that start with what was typed, or hold a word that does,
 * best pages first, one suggestion for a heading many pages share, a
 * heading linked to its section; and a worker holds no more entries than
 * `searcher.typeahead.entries`, the best pages' first.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { typeAheadOf } from '../../searcher/typeahead.js';
import { crawlSpellWeb, type SpellWeb } from './spell-web.js';

interface Suggestions {
  query: string;
  suggestions: { text: string; url: string; kind: 'title' | 'heading' }[];
  complete: boolean;
}

let web: SpellWeb;
let s: RunningSearcher;

test.before(async () => {
  web = await crawlSpellWeb('127.0.28');
  s = await startSearcher(Conf.load(), { dir: web.dir, port: 0, host: '127.0.28.200' });
});

test.after(async () => {
  await s?.close();
  await web?.stop();
});

async function suggest(q: string, extra = ''): Promise<Suggestions> {
  const r = await fetch(`${s.url}/api/suggest?q=${encodeURIComponent(q)}${extra}`);
  assert.is(r.status, 200, q);
  return (await r.json()) as Suggestions;
}
const texts = (r: Suggestions) => r.suggestions.map((x) => x.text);

test('a prefix of a title suggests the titles it starts, a heading too, each once', async () => {
  const r = await suggest('replic');
  assert.ok(r.complete, 'a small index is listed at once');
  assert.equal(texts(r), ['Replication slots 0', 'Replication slots 1', 'Creating a replication slot']);
  assert.equal(r.suggestions[2], { text: 'Creating a replication slot', url: web.url('pg', 'Replication slots', 0) + '#creating-a-replication-slot', kind: 'heading' });
});

test('every word may be a prefix of the last; words in any place of a title match', async () => {
  assert.equal(texts(await suggest('window func')), ['Window functions 0', 'Window functions 1']);
  assert.equal(texts(await suggest('inheri')), ['Template inheritance 0', 'Template inheritance 1']);
  assert.equal(texts(await suggest('child')), ['Child template']);
});

test('nothing for nothing typed or nothing known; limit caps the list', async () => {
  assert.equal(texts(await suggest('')), []);
  assert.equal(texts(await suggest('zzqx')), []);
  assert.is((await suggest('a', '&limit=3')).suggestions.length, 3);
  const bad = await fetch(`${s.url}/api/suggest?q=a&limit=x`);
  assert.is(bad.status, 400);
});

test('a worker holds at most searcher.typeahead.entries, the pages of best link score first', async () => {
  const settings = searchSettings(Conf.load({ overrides: { 'searcher.typeahead.entries': '5' } }));
  const snaps = await CrawlSnapshots.open(web.dir, settings);
  const lease = snaps.acquire();
  try {
    const ta = typeAheadOf(lease.snapshot, 5);
    assert.is(ta.size, 5);
    assert.ok(ta.complete);
    const reader = lease.snapshot.reader;
    const ids = Array.from({ length: reader.meta.docCount }, (_, id) => id);
    const isHeld = (id: number) => ta.suggest(reader.doc(id).title, 20).some((e) => e.url === reader.doc(id).url && e.kind === 'title');
    const held = ids.filter(isHeld).map((id) => reader.boost(id));
    const left = ids.filter((id) => !isHeld(id)).map((id) => reader.boost(id));
    assert.ok(held.length >= 1 && Math.min(...held) >= Math.max(...left), `held ${held}, left out ${left}`);
    assert.is(typeAheadOf(lease.snapshot, 5), ta, 'made once a snapshot');
  } finally {
    lease.release();
    await snaps.close();
  }
});

test.run();
